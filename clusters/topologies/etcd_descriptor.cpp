#include "clusters/topologies/etcd_cluster.hpp"

#include "clusters/servers/server_data_files.hpp"

namespace lockcheck {

TopologyDescriptor etcd_topology() {
    return {.name = "etcd",
            .description = "three etcd members",
            .node_count = fixed_node_count(EtcdCluster::kMembers),
            .make = construct_topology<EtcdCluster>,
            .no_peer_links_reason =
                "etcd members learn each other's peer URL from the cluster membership, one URL per member for all "
                "the others, so no member can reach another through a link of its own, and etcd does not bind the "
                "source address of its peer connections, so one shared link cannot tell the members apart",
            .read_server_record = read_etcd_server_record,
            .data_files = etcd_data_files()};
}

}  // namespace lockcheck
