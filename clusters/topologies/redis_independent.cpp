#include "clusters/topologies/redis_independent.hpp"

namespace lockcheck {

RedisIndependent::RedisIndependent(const TopologyOptions& options, const TestNetwork& network) {
    const auto persistence = redis_persistence_from_string(options.persistence);
    for (int i = 0; i < network.node_count(); ++i) {
        nodes_.push_back(make_topology_node(
            options, network, i, "n" + std::to_string(i + 1), [&](const auto& dir, const auto& address) {
                return redis_server_program(dir, address, persistence, options.credentials.client_password,
                                            redis_durability_config(options.durability));
            }));
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
