// Fault "failover" on servers that elect a new primary themselves
// (clusters/topologies/failover_control.hpp: topology redis-sentinel): cut the primary
// off from the replicas and the sentinels until
// Sentinel promotes a replica, then heal (docs/servers.md: the lock loss reproduces only when the old
// primary stays cut off until a replica is promoted).
//
// start: waits (up to 8 s) until the cluster has settled after any previous
//   failover, then replaces the primary's filter table with DROP rules for
//   every other node's address, in and out, in one iptables-restore batch
//   inside the primary's namespace. In loopback mode it cuts the primary's
//   peer links instead (clusters/network/peer_links.hpp), both ways. Clients (the
//   bridge address .254; in loopback mode 127.0.0.1) still reach it, and it still answers as master, so
//   clients the sentinels have not yet redirected keep taking locks there
//   that never reach the replica about to be promoted.
// heal: at the end of the event's duration, waits until the sentinels name
//   another primary (at most 15 s after the cut, less when the run stops),
//   then clears the rules (heals the links); Sentinel then turns the old primary into a replica.
// Target: the primary's node name.
#pragma once

#include <chrono>
#include <mutex>

#include "clusters/topologies/failover_control.hpp"
#include "clusters/network/peer_links.hpp"
#include "clusters/topologies/topology.hpp"
#include "nemesis/fault.hpp"
#include "nemesis/fault_descriptor.hpp"

namespace lockcheck {

class Failover : public Fault {
public:
    /// `election`: the topology's (Topology::failover_control()); nullptr
    /// leaves the fault unavailable. `peer_links`: the servers' peer links in
    /// loopback mode, or null.
    Failover(Topology& topology, PrimaryElection* election, bool namespaces, PeerLinks* peer_links)
        : topology_(topology), election_(election), namespaces_(namespaces), peer_links_(peer_links) {}
    std::string kind() const override { return "failover"; }
    std::optional<std::string> unavailable_reason() const override;
    std::optional<std::vector<std::string>> start(const FaultEvent& event, const std::stop_token& stop) override;
    void heal() noexcept override;

private:
    Topology& topology_;
    PrimaryElection* election_;
    bool namespaces_;
    PeerLinks* peer_links_;
    std::mutex mutex_;
    Node* cut_ = nullptr;
    std::stop_token stop_;  ///< the run's: heal stops waiting for a promotion once it is requested
    std::chrono::steady_clock::time_point cut_at_;
};

/// The descriptor of this fault (nemesis/failover_descriptor.cpp).
FaultDescriptor failover_fault();

}  // namespace lockcheck
