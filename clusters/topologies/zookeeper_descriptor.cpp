#include "clusters/topologies/zookeeper_ensemble.hpp"

#include "clusters/servers/server_data_files.hpp"

namespace lockcheck {

TopologyDescriptor zookeeper_topology() {
    return {.name = "zookeeper",
            .description = "an ensemble of three ZooKeeper servers",
            .node_count = fixed_node_count(ZooKeeperEnsemble::kServers),
            .make = construct_topology<ZooKeeperEnsemble>,
            .peer_links_cut_peers = true,
            .read_server_record = read_zookeeper_server_record,
            .data_files = zookeeper_data_files()};
}

}  // namespace lockcheck
