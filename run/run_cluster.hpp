// The servers of one run and what stands between them and the workers: the
// test network, the peer links (loopback partitions), the fork server of
// the built-in workers, the started topology and the fault proxy.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "clusters/network/peer_links.hpp"
#include "clusters/network/test_network.hpp"
#include "clusters/topologies/topology.hpp"
#include "host/fork_server.hpp"
#include "nemesis/proxied_network.hpp"
#include "run/run_context.hpp"

namespace lockcheck {

/// The servers of a run and what stands between them and the workers, made
/// in this order and unmade in the reverse: the test network, the peer
/// links, the fork server, the topology (started), the fault proxy.
struct RunCluster {
    /// Makes and starts them all; throws (after undoing what it made) when one fails.
    RunCluster(const RunContext& run, NetworkMode network_mode, const std::filesystem::path& scratch_dir);

    TopologyOptions topology_options;
    TestNetwork network;
    std::unique_ptr<PeerLinks> peer_links;
    std::optional<std::filesystem::path> worker_clock;
    std::unique_ptr<ForkServer> fork_server;
    std::unique_ptr<Topology> topology;
    std::vector<std::string> endpoints;
    std::unique_ptr<ProxiedNetwork> proxy;
};

}  // namespace lockcheck
