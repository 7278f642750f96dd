// A database topology: the set of nodes of one run and how clients reach them.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "clusters/node.hpp"
#include "clusters/test_network.hpp"

namespace lockcheck {

struct TopologyOptions {
    std::string name;                 ///< e.g. "redis-single"
    std::string persistence = "none"; ///< Redis: none | everysec | always
    std::filesystem::path dir;        ///< the run's nodes/ directory
    int node_count = 0;               ///< redis-independent: nodes (0: the topology's default)
    /// When set, server nodes run with this LD_PRELOAD clock library and a
    /// per-node offset file (clusters/clock_offset.hpp), so clock-skew can move their clocks.
    std::optional<std::filesystem::path> clock_library;
};

class Topology {
public:
    virtual ~Topology() = default;
    /// Starts every node and waits until the topology is ready for clients.
    virtual void start() = 0;
    /// Stops every node (SIGTERM, then SIGKILL). Idempotent.
    virtual void stop() = 0;
    virtual std::vector<Node*> nodes() = 0;
    /// Addresses clients connect to ("ip:port"), in node order.
    virtual std::vector<std::string> client_endpoints() const = 0;
    /// The node clients currently write to, for topologies with a primary
    /// (asks the cluster); nullptr otherwise or when it is unknown.
    virtual Node* primary() { return nullptr; }
    /// True when every lock lives on primary() (one database server, or the
    /// writable one of a replicated database): faults that strike the node
    /// of the current lock (kill-restart, clock-skew) strike the primary.
    virtual bool locks_on_primary() const { return false; }
};

/// Topology names this build knows.
std::vector<std::string> topology_names();
/// How many nodes (network hosts) the topology needs.
int topology_node_count(const TopologyOptions& options);
/// Builds the topology on `network` (nodes not started). Throws
/// std::invalid_argument for an unknown name or option.
std::unique_ptr<Topology> make_topology(const TopologyOptions& options, const TestNetwork& network);

}  // namespace lockcheck
