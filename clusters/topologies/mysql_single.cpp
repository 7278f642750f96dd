#include "clusters/topologies/mysql_single.hpp"

#include "clusters/servers/mariadb_node.hpp"

namespace lockcheck {

std::string mariadb_endpoint(const Node& node) { return node.address() + ":" + std::to_string(kMariadbPort); }

std::unique_ptr<Node> make_mariadb_node(const TopologyOptions& options, const TestNetwork& network, int host,
                                        const std::string& name, const std::vector<std::string>& extra_args) {
    TopologyOptions absolute = options;
    absolute.dir = std::filesystem::absolute(options.dir);  // mariadbd changes into its datadir
    return make_topology_node(absolute, network, host, name, [&](const auto& dir, const auto& address) {
        return mariadb_server_program(dir, address, host + 1, options.durability, extra_args);
    });
}

MysqlSingle::MysqlSingle(const TopologyOptions& options, const TestNetwork& network)
    : node_(make_mariadb_node(options, network, 0, "n1")), credentials_(options.credentials), run_id_(network.run_id()) {}

void MysqlSingle::start() {
    install_mariadb_datadirs({node_->dir()}, run_id_);
    node_->start();
    create_mariadb_accounts(*node_, credentials_);
}

void MysqlSingle::stop() { node_->stop(); }

std::vector<std::string> MysqlSingle::client_endpoints() const { return {mariadb_endpoint(*node_)}; }

}  // namespace lockcheck
