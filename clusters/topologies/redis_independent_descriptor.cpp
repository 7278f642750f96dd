#include "clusters/topologies/redis_independent.hpp"

#include "clusters/servers/server_data_files.hpp"

namespace lockcheck {

TopologyDescriptor redis_independent_topology() {
    return {.name = "redis-independent",
            .description = "`nodes` redis-servers that know nothing of each other (default 5), for Redlock",
            .max_nodes = 64,
            .node_count =
                [](const TopologyOptions& options) {
                    return options.node_count > 0 ? options.node_count : RedisIndependent::kDefaultNodes;
                },
            .make = construct_topology<RedisIndependent>,
            .peer_links_cut_peers = true,
            .data_files = redis_data_files()};
}

}  // namespace lockcheck
