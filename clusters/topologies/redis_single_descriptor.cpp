#include "clusters/topologies/redis_single.hpp"

#include "clusters/servers/server_data_files.hpp"

namespace lockcheck {

TopologyDescriptor redis_single_topology() {
    return {.name = "redis-single",
            .description = "one redis-server",
            .node_count = fixed_node_count(1),
            .make = construct_topology<RedisSingle>,
            .peer_links_cut_peers = true,
            .data_files = redis_data_files()};
}

}  // namespace lockcheck
