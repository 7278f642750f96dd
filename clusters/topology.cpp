#include "clusters/topology.hpp"

#include <stdexcept>

#include "clusters/redis_single.hpp"

namespace lockcheck {

std::vector<std::string> topology_names() { return {"redis-single"}; }

int topology_node_count(const TopologyOptions& options) {
    if (options.name == "redis-single") return 1;
    throw std::invalid_argument("unknown topology '" + options.name + "'");
}

std::unique_ptr<Topology> make_topology(const TopologyOptions& options, const TestNetwork& network) {
    if (options.name == "redis-single") return std::make_unique<RedisSingle>(options, network);
    throw std::invalid_argument("unknown topology '" + options.name + "'");
}

}  // namespace lockcheck
