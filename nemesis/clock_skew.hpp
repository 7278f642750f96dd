// Fault "clock-skew": the wall clock of one or two server nodes jumps by
// clock_skew_ms (spec field; forward when positive) while the servers run,
// and jumps back when the fault ends. Works through the project's LD_PRELOAD
// clock library (clusters/clock_offset.hpp): the run starts the nodes with it
// when the nemesis includes clock-skew, and the fault rewrites each target's
// offset file in place where its server runs (Node::rewrite_in_place: this
// host's file for netns and docker, the host's copy for runtime ssh). Redis expires keys by the wall clock,
// so a jump past the TTL expires every lease on that node at once.
//
// Target: clock_skew_nodes nodes (1 or 2) of the current holder's lock where
// one is found (nemesis/lock_location.hpp; the primary on the MariaDB
// topologies), otherwise nodes chosen by pick. MariaDB's NOW() follows the
// skewed clock.
#pragma once

#include <cstdint>
#include <mutex>
#include <vector>

#include "nemesis/fault.hpp"
#include "nemesis/fault_descriptor.hpp"
#include "nemesis/lock_location.hpp"

namespace lockcheck {

class ClockSkew : public Fault {
public:
    ClockSkew(LockLocator locator, std::int64_t offset_ms, int node_count)
        : locator_(std::move(locator)),
          nodes_(locator_.topology().nodes()),
          offset_ms_(offset_ms),
          node_count_(node_count) {}
    std::string kind() const override { return "clock-skew"; }
    std::optional<std::string> unavailable_reason() const override;
    std::optional<std::vector<std::string>> start(const FaultEvent& event, const std::stop_token& stop) override;
    void heal() noexcept override;

private:
    LockLocator locator_;
    std::vector<Node*> nodes_;
    std::int64_t offset_ms_;
    int node_count_;
    std::mutex mutex_;
    std::vector<Node*> skewed_;
};

/// The descriptor of this fault (nemesis/clock_skew_descriptor.cpp).
FaultDescriptor clock_skew_fault();

/// An option giving how far a clock jumps: ms (negative: back) or "Nxttl",
/// default "2xttl", at most 1 day either way (clock-skew, client-clock-skew).
OptionDescriptor clock_jump_option(std::string name, std::string description);

}  // namespace lockcheck
