// Where a Redis lock lives right now: which nodes store which owner under a
// lock key. Faults that want to hurt the current holder (kill-restart,
// clock-skew on Redlock) use it to strike a node the holder's lock is on.
#pragma once

#include <chrono>
#include <stop_token>
#include <string>
#include <vector>

#include "clusters/node.hpp"
#include "clusters/topologies/topology.hpp"

namespace lockcheck {

/// The nodes (among `nodes`, redis-servers, logged in to with `password`)
/// that store the lock of the owner found on the most nodes (an id counter of
/// redis-incr-ids, key "*:ids", counts as a lock held by one owner), preferring an
/// owner on exactly a bare majority (N/2 + 1: losing one of them loses the
/// quorum). Only a placement seen in two polls in a row (5 ms apart) counts:
/// an acquire or release in progress passes through every count for a
/// moment. Polls until some lock is held, for at most `patience`; empty when
/// none is or a stop is requested.
std::vector<Node*> nodes_of_current_lock(const std::vector<Node*>& nodes, const std::string& password,
                                         std::chrono::milliseconds patience, const std::stop_token& stop);

/// Finds the nodes of the current lock on one topology.
class LockLocator {
public:
    /// `password`: the servers' client password (Redis topologies ask for it).
    LockLocator(Topology& topology, std::string password) : topology_(topology), password_(std::move(password)) {}

    Topology& topology() const { return topology_; }
    /// Topology::lock_nodes() when the topology names them (ZooKeeper, etcd,
    /// MariaDB), otherwise nodes_of_current_lock(topology.nodes(), ...) (Redis).
    std::vector<Node*> nodes_of_current_lock(std::chrono::milliseconds patience, const std::stop_token& stop) const;

private:
    Topology& topology_;
    std::string password_;
};

}  // namespace lockcheck
