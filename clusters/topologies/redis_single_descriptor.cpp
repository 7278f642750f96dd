#include "clusters/topologies/redis_single.hpp"

namespace lockcheck {

TopologyDescriptor redis_single_topology() {
    return {.name = "redis-single",
            .description = "one redis-server",
            .node_count = fixed_node_count(1),
            .make = construct_topology<RedisSingle>,
            .peer_links_cut_peers = true};
}

}  // namespace lockcheck
