// Where a Redis lock lives right now: which nodes store which owner under a
// lock key. Faults that want to hurt the current holder (kill-restart,
// clock-skew on Redlock) use it to strike a node the holder's lock is on.
#pragma once

#include <atomic>
#include <chrono>
#include <vector>

#include "clusters/node.hpp"
#include "clusters/topology.hpp"

namespace lockcheck {

/// The nodes (among `nodes`, redis-servers) that store the lock of the owner
/// found on the most nodes, preferring an owner on exactly a bare majority
/// (N/2 + 1: losing one of them loses the quorum). Only a placement seen in
/// two polls in a row (5 ms apart) counts: an acquire or release in progress
/// passes through every count for a moment. Polls until some lock is held,
/// for at most `patience`; empty when none is or `stop` is set.
std::vector<Node*> nodes_of_current_lock(const std::vector<Node*>& nodes, std::chrono::milliseconds patience,
                                         const std::atomic<bool>& stop);

/// The nodes of the current lock on `topology`: {primary()} when the
/// topology keeps every lock there (Topology::locks_on_primary(), the
/// MariaDB topologies; empty when no primary answers), otherwise
/// nodes_of_current_lock(topology.nodes(), patience, stop) (Redis).
std::vector<Node*> nodes_of_current_lock(Topology& topology, std::chrono::milliseconds patience,
                                         const std::atomic<bool>& stop);

}  // namespace lockcheck
