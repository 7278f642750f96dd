#include "clusters/topologies/mysql_single.hpp"

#include "clusters/servers/server_data_files.hpp"

namespace lockcheck {

TopologyDescriptor mysql_single_topology() {
    return {.name = "mysql-single",
            .description = "one MariaDB server",
            .node_count = fixed_node_count(1),
            .make = construct_topology<MysqlSingle>,
            .peer_links_cut_peers = true,  // one server: no peer traffic
            .data_files = mariadb_data_files()};
}

}  // namespace lockcheck
