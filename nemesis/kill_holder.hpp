// Fault "kill-holder": SIGKILL the lock client that holds the lock, or that
// is in the middle of acquiring it - a client crash (OOM kill, power loss).
//
// At the event's time it waits (up to 5 s) for a target: a worker that holds
// the lock, or whose acquire has been in flight for at least the event's
// target_delay_ms (longer than a refused attempt takes, so a two-step acquire
// such as SETNX-then-EXPIRE has done its first step). The event's `pick`
// chooses among several. The dead worker's driver sees "worker exited" and the
// pool replaces it under a new process number; whatever lock it held stays
// behind on the server (until its lease runs out, or forever without one).
// Healing does nothing: the dead stay dead.
#pragma once

#include "nemesis/fault.hpp"
#include "nemesis/fault_descriptor.hpp"

namespace lockcheck {

class KillHolder : public Fault {
public:
    explicit KillHolder(WorkerControl& workers) : workers_(workers) {}
    std::string kind() const override { return "kill-holder"; }
    std::optional<std::vector<std::string>> start(const FaultEvent& event, const std::stop_token& stop) override;
    void heal() noexcept override {}

private:
    WorkerControl& workers_;
};

/// The descriptor of this fault (nemesis/kill_holder_descriptor.cpp).
FaultDescriptor kill_holder_fault();

}  // namespace lockcheck
