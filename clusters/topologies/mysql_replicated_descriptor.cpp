#include "clusters/topologies/mysql_replicated.hpp"

#include "clusters/servers/server_data_files.hpp"

namespace lockcheck {

TopologyDescriptor mysql_replicated_topology() {
    return {.name = "mysql-replicated",
            .description = "a MariaDB primary and an asynchronous read-only GTID replica; failover promotes it",
            .node_count = fixed_node_count(2),
            .make = construct_topology<MysqlReplicated>,
            .peer_links_cut_peers = true,
            .faults_needing_namespaces = {
                {"failover",
                 "the harness's failover of mysql-replicated also cuts the clients off from the old primary "
                 "with firewall rules inside its namespace"}},
            .data_files = mariadb_data_files()};
}

}  // namespace lockcheck
