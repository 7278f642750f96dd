// Topology "redis-sentinel": a primary (n1), two replicas (n2, n3) and three
// redis-sentinel processes (s1..s3, port 26379) watching them under the master
// name kSentinelMasterName, every process on its own host (namespace).
//
// Sentinel settings (docs/servers.md): down-after-milliseconds 1000, failover-timeout
// 3000, quorum 2, so a primary that is lost is replaced 2.2-2.8 s later.
// Replicas use repl-diskless-sync-delay 0. start() returns only when the
// replicas are in sync with the primary and every sentinel sees the other two
// (num-other-sentinels = 2) and both replicas; before that, faults would hit
// a half-formed cluster.
//
// Clients get the sentinels' addresses as "sentinel:IP:26379" endpoints and
// ask them for the current primary (recipes/redis_primary.hpp). Servers and
// sentinels all ask for the run's client password (requirepass); replicas
// and sentinels log in to the servers with it (masterauth, auth-pass).
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "clusters/servers/redis_node.hpp"
#include "clusters/topologies/topology.hpp"
#include "clusters/topologies/topology_descriptor.hpp"

namespace lockcheck {

inline constexpr int kSentinelPort = 26379;
inline constexpr const char* kSentinelMasterName = "lockcheck";
/// Prefix of a client endpoint that names a sentinel rather than a server.
inline constexpr const char* kSentinelEndpointPrefix = "sentinel:";

class RedisSentinel : public Topology, public PrimaryElection {
public:
    static constexpr int kRedisNodes = 3;
    static constexpr int kSentinels = 3;

    RedisSentinel(const TopologyOptions& options, const TestNetwork& network);
    void start() override;
    void stop() override;
    std::vector<Node*> nodes() override;
    /// "sentinel:IP:26379" for each sentinel.
    std::vector<std::string> client_endpoints() const override;
    /// The redis node the sentinels name as primary (majority of those that
    /// answer), or nullptr when none answers.
    Node* primary() override;

    std::vector<Node*> redis_nodes();
    std::vector<Node*> sentinels();
    /// True when `primary` reports `replicas` replicas online and every
    /// sentinel names it and sees the other sentinels.
    bool settled(Node& primary, int replicas);
    /// settled() with both replicas.
    bool settled_on(Node& primary) override { return settled(primary, kRedisNodes - 1); }
    /// The sentinels elect the new primary.
    FailoverControl failover_control() override { return {.election = this}; }

private:
    std::string password_;       ///< of the servers and the sentinels alike
    std::stop_token interrupt_;  ///< ends the wait of start() early
    std::vector<std::unique_ptr<Node>> redis_;
    std::vector<std::unique_ptr<Node>> sentinels_;
};

/// The descriptor of this topology (clusters/topologies/redis_sentinel_descriptor.cpp).
TopologyDescriptor redis_sentinel_topology();

}  // namespace lockcheck
