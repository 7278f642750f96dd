// Topology "redis-single": one redis-server.
#pragma once

#include "clusters/servers/redis_node.hpp"
#include "clusters/topologies/topology.hpp"
#include "clusters/topologies/topology_descriptor.hpp"

namespace lockcheck {

class RedisSingle : public Topology {
public:
    RedisSingle(const TopologyOptions& options, const TestNetwork& network);
    void start() override;
    void stop() override;
    std::vector<Node*> nodes() override { return {node_.get()}; }
    std::vector<std::string> client_endpoints() const override;

private:
    std::unique_ptr<Node> node_;
};

/// The descriptor of this topology (clusters/topologies/redis_single_descriptor.cpp).
TopologyDescriptor redis_single_topology();

}  // namespace lockcheck
