// Fault "partition": network partitions between the servers, healed when the
// fault ends and at the end of every run. With namespaces: iptables DROP
// rules inside the node namespaces (never the root namespace's). In loopback
// mode: the peer links of the fault proxy are cut (clusters/network/peer_links.hpp),
// on topologies whose peers talk through them; unavailable without either.
//
// Modes (spec field partition_mode):
//   isolate-one:       one node (the event's pick) loses every other node;
//   isolate-primary:   the topology's primary loses every other node
//                      (falls back to isolate-one without a primary);
//   majority-minority: the nodes split into a minority of N/2 (chosen by the
//                      pick) and the rest; neither side reaches the other.
// Clients (the controller's bridge address) still reach every node: this is a
// partition between servers, as Jepsen's partitioners make.
// Targets: the minority's node names.
#pragma once

#include <mutex>
#include <vector>

#include "clusters/network/peer_links.hpp"
#include "clusters/topologies/topology.hpp"
#include "nemesis/fault.hpp"
#include "nemesis/fault_descriptor.hpp"

namespace lockcheck {

class Partition : public Fault {
public:
    /// `peer_links`: the servers' peer links in loopback mode, or null.
    Partition(Topology& topology, bool namespaces, PeerLinks* peer_links, std::string mode)
        : topology_(topology), namespaces_(namespaces), peer_links_(peer_links), mode_(std::move(mode)) {}
    std::string kind() const override { return "partition"; }
    std::optional<std::string> unavailable_reason() const override;
    std::optional<std::vector<std::string>> start(const FaultEvent& event, const std::stop_token& stop) override;
    void heal() noexcept override;

private:
    Topology& topology_;
    bool namespaces_;
    PeerLinks* peer_links_;
    std::string mode_;
    std::mutex mutex_;
    std::vector<Node*> cut_;  ///< nodes with rules in place (loopback: the minority while cut)
};

/// The partition modes, for validation.
const std::vector<std::string>& partition_modes();

/// The descriptor of this fault (nemesis/partition_descriptor.cpp).
FaultDescriptor partition_fault();

}  // namespace lockcheck
