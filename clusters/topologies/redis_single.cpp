#include "clusters/topologies/redis_single.hpp"

namespace lockcheck {

RedisSingle::RedisSingle(const TopologyOptions& options, const TestNetwork& network) {
    const auto persistence = redis_persistence_from_string(options.persistence);
    node_ = make_topology_node(options, network, 0, "n1", [&](const auto& dir, const auto& address) {
        return redis_server_program(dir, address, persistence, options.credentials.client_password,
                                    redis_durability_config(options.durability));
    });
}

void RedisSingle::start() { node_->start(); }

void RedisSingle::stop() { node_->stop(); }

std::vector<std::string> RedisSingle::client_endpoints() const {
    return {node_->address() + ":" + std::to_string(kRedisPort)};
}

}  // namespace lockcheck
