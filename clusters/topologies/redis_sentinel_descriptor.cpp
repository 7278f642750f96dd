#include "clusters/topologies/redis_sentinel.hpp"

#include "clusters/servers/server_data_files.hpp"

namespace lockcheck {

TopologyDescriptor redis_sentinel_topology() {
    return {
        .name = "redis-sentinel",
        .description = "a Redis primary, two replicas and three Sentinels; clients ask the Sentinels for the primary",
        .node_count = fixed_node_count(RedisSentinel::kRedisNodes + RedisSentinel::kSentinels),
        .make = construct_topology<RedisSentinel>,
        .peer_links_cut_peers = true,
        .data_files = redis_data_files()};
}

}  // namespace lockcheck
