// Topology "mysql-single": one mariadbd (clusters/servers/mariadb_node.hpp) on its
// own host; clients reach it at IP:3306 as the account kMariadbUser with the
// run's client password.
#pragma once

#include <memory>

#include "clusters/topologies/topology.hpp"
#include "clusters/topologies/topology_descriptor.hpp"

namespace lockcheck {

class MysqlSingle : public Topology {
public:
    MysqlSingle(const TopologyOptions& options, const TestNetwork& network);
    /// Installs the data directory, starts the server, creates the accounts.
    void start() override;
    void stop() override;
    std::vector<Node*> nodes() override { return {node_.get()}; }
    std::vector<std::string> client_endpoints() const override;
    /// The one server: every lock lives there.
    Node* primary() override { return node_.get(); }
    /// Every lock lives on the primary.
    std::optional<std::vector<Node*>> lock_nodes() override {
        Node* p = primary();
        return p ? std::vector<Node*>{p} : std::vector<Node*>{};
    }

private:
    std::unique_ptr<Node> node_;
    ServerCredentials credentials_;
    std::string run_id_;  ///< names the installer's links in /tmp (install_mariadb_datadirs)
};

/// "ip:3306" of `node`.
std::string mariadb_endpoint(const Node& node);

/// A mariadbd Node named `name` for host `host` of `network` under
/// options.dir/name, with the clock library when options ask for it and
/// options.durability's settings.
std::unique_ptr<Node> make_mariadb_node(const TopologyOptions& options, const TestNetwork& network, int host,
                                        const std::string& name, const std::vector<std::string>& extra_args = {});

/// The descriptor of this topology (clusters/topologies/mysql_single_descriptor.cpp).
TopologyDescriptor mysql_single_topology();

}  // namespace lockcheck
