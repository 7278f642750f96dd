// Topology "redis-independent": N redis-server nodes that know nothing of each
// other (n1..nN, default 5), the servers Redlock runs on. Client endpoints are
// the nodes' addresses in node order.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "clusters/servers/redis_node.hpp"
#include "clusters/topologies/topology.hpp"
#include "clusters/topologies/topology_descriptor.hpp"

namespace lockcheck {

class RedisIndependent : public Topology {
public:
    static constexpr int kDefaultNodes = 5;

    RedisIndependent(const TopologyOptions& options, const TestNetwork& network);
    void start() override;
    void stop() override;
    std::vector<Node*> nodes() override;
    std::vector<std::string> client_endpoints() const override;

private:
    std::vector<std::unique_ptr<Node>> nodes_;
};

/// The descriptor of this topology (clusters/topologies/redis_independent_descriptor.cpp).
TopologyDescriptor redis_independent_topology();

}  // namespace lockcheck
