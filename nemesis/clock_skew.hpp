// Fault "clock-skew": moves the clocks of one or two server nodes while the
// servers run, as its options say (nemesis/clock_fault_options.hpp: which
// clocks, jump / drift / strobe, how much), and heals them when the fault
// ends (the wall clock jumps back; a monotonic clock keeps its offset and
// runs at the true rate again: nemesis/clock_change.hpp). Works through the
// project's clock library (clusters/clock_offset.hpp), which the run loads
// into every node when the nemesis includes clock-skew, and which reaches
// the vDSO too (Go: etcd); the fault rewrites each target's clock file in
// place where its server runs (Node::rewrite_in_place: this host's file for
// netns and docker, the host's copy for runtime ssh). A node keeps its clock
// state across a restart (the file is in its directory).
//
// Target: clock_skew_nodes nodes (1 or 2) of the current holder's lock where
// one is found (nemesis/lock_location.hpp; the leader on zookeeper and etcd,
// the primary on the MariaDB topologies), otherwise nodes chosen by pick.
#pragma once

#include <cstdint>
#include <mutex>
#include <vector>

#include "nemesis/clock_action.hpp"
#include "nemesis/fault.hpp"
#include "nemesis/fault_descriptor.hpp"
#include "nemesis/lock_location.hpp"

namespace lockcheck {

class ClockSkew : public Fault {
public:
    ClockSkew(LockLocator locator, ClockChange change, int node_count)
        : locator_(std::move(locator)), nodes_(locator_.topology().nodes()), action_(change), node_count_(node_count) {}
    std::string kind() const override { return "clock-skew"; }
    std::optional<std::string> unavailable_reason() const override;
    std::optional<std::vector<std::string>> start(const FaultEvent& event, const std::stop_token& stop) override;
    void heal() noexcept override;

private:
    LockLocator locator_;
    std::vector<Node*> nodes_;
    ClockAction action_;
    int node_count_;
};

/// The descriptor of this fault (nemesis/clock_skew_descriptor.cpp).
FaultDescriptor clock_skew_fault();

}  // namespace lockcheck
