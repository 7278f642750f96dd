#include "clusters/redis_independent.hpp"

#include "clusters/clock_offset.hpp"

namespace lockcheck {

RedisIndependent::RedisIndependent(const TopologyOptions& options, const TestNetwork& network) {
    const auto persistence = redis_persistence_from_string(options.persistence);
    for (int i = 0; i < network.node_count(); ++i) {
        const std::string name = "n" + std::to_string(i + 1);
        const auto dir = options.dir / name;
        nodes_.push_back(std::make_unique<Node>(name, network.address(i), network.netns(i), dir,
                                                redis_server_program(dir, network.address(i), persistence),
                                                clock_environment(options.clock_library, dir)));
    }
}

void RedisIndependent::start() {
    for (auto& n : nodes_) n->start();
}

void RedisIndependent::stop() {
    for (auto& n : nodes_) n->stop();
}

std::vector<Node*> RedisIndependent::nodes() { return node_pointers(nodes_); }

std::vector<std::string> RedisIndependent::client_endpoints() const { return node_endpoints(nodes_, kRedisPort); }

}  // namespace lockcheck
