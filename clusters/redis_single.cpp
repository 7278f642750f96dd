#include "clusters/redis_single.hpp"

#include "clusters/clock_offset.hpp"

namespace lockcheck {

RedisSingle::RedisSingle(const TopologyOptions& options, const TestNetwork& network) {
    const auto dir = options.dir / "n1";
    node_ = std::make_unique<Node>(
        "n1", network.address(0), network.netns(0), dir,
        redis_server_program(dir, network.address(0), redis_persistence_from_string(options.persistence)),
        clock_environment(options.clock_library, dir));
}

void RedisSingle::start() { node_->start(); }

void RedisSingle::stop() { node_->stop(); }

std::vector<std::string> RedisSingle::client_endpoints() const {
    return {node_->address() + ":" + std::to_string(kRedisPort)};
}

}  // namespace lockcheck
