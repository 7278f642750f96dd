#include "clusters/mysql_single.hpp"

#include "clusters/clock_offset.hpp"
#include "clusters/mariadb_node.hpp"

namespace lockcheck {

std::string mariadb_endpoint(const Node& node) { return node.address() + ":" + std::to_string(kMariadbPort); }

std::unique_ptr<Node> make_mariadb_node(const TopologyOptions& options, const TestNetwork& network, int host,
                                        const std::string& name, const std::vector<std::string>& extra_args) {
    const auto dir = std::filesystem::absolute(options.dir / name);  // mariadbd changes into its datadir
    return std::make_unique<Node>(name, network.address(host), network.netns(host), dir,
                                  mariadb_server_program(dir, network.address(host), host + 1, extra_args),
                                  clock_environment(options.clock_library, dir));
}

MysqlSingle::MysqlSingle(const TopologyOptions& options, const TestNetwork& network)
    : node_(make_mariadb_node(options, network, 0, "n1")) {}

void MysqlSingle::start() {
    install_mariadb_datadirs({node_->dir()});
    node_->start();
    create_mariadb_client_account(*node_);
}

void MysqlSingle::stop() { node_->stop(); }

std::vector<std::string> MysqlSingle::client_endpoints() const { return {mariadb_endpoint(*node_)}; }

}  // namespace lockcheck
