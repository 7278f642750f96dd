#include "clusters/mysql_replicated.hpp"

namespace lockcheck {

TopologyDescriptor mysql_replicated_topology() {
    return {
        .name = "mysql-replicated",
        .description = "a MariaDB primary and an asynchronous read-only GTID replica; failover promotes it",
        .node_count = fixed_node_count(2),
        .make = construct_topology<MysqlReplicated>,
        .no_peer_links_reason = "the replica's replication connection does not go through the fault proxy (not yet)"};
}

}  // namespace lockcheck
