// Fault "kill-holder": SIGKILL the lock client that holds the lock, or that
// is in the middle of acquiring it - a client crash (OOM kill, power loss).
//
// At the event's time it waits (up to 5 s) for a target: a worker that holds
// the lock, or whose acquire has been in flight for at least the event's
// target_delay_ms (longer than a refused attempt takes, so a two-step acquire
// such as SETNX-then-EXPIRE has done its first step). Its aim
// (kill_holder_target) can prefer the second: "acquiring-first" waits up to
// kill_holder_acquiring_wait_ms for an acquire in flight that long, and only
// then takes a holder too (a client whose acquires are quick is still killed,
// holding). The event's `pick` chooses among several. The dead worker's
// driver sees "worker exited" and the pool replaces it under a new process
// number; whatever lock it held stays behind on the server (until its lease
// runs out, or forever without one). The completion records struck_ns, the
// moment just before the kill. Healing does nothing: the dead stay dead.
#pragma once

#include <chrono>
#include <functional>
#include <mutex>

#include "nemesis/fault.hpp"
#include "nemesis/fault_descriptor.hpp"

namespace lockcheck {

/// Which workers kill-holder strikes (options kill_holder_target and
/// kill_holder_acquiring_wait_ms).
struct KillHolderTarget {
    /// Wait this long for a worker whose acquire is in flight before taking a
    /// holder too; 0 ("holder-or-acquiring", the default): either at once.
    std::chrono::milliseconds acquiring_first{0};
};

class KillHolder : public Fault {
public:
    explicit KillHolder(WorkerControl& workers, KillHolderTarget target = {}) : workers_(workers), target_(target) {}
    std::string kind() const override { return "kill-holder"; }
    std::optional<std::vector<std::string>> start(const FaultEvent& event, const std::stop_token& stop) override;
    void heal() noexcept override {}
    /// The moment just before its last kill (recorded as the start-fault's
    /// struck_ns: a request sent before it was in flight at the kill).
    std::optional<std::chrono::steady_clock::time_point> struck_at() const override;

private:
    /// Kills one of `candidates` (waiting until `give_up`); its target words, or nullopt.
    std::optional<std::vector<std::string>> kill_one(const std::function<std::vector<int>()>& candidates,
                                                     const FaultEvent& event,
                                                     std::chrono::steady_clock::time_point give_up,
                                                     const std::stop_token& stop);
    WorkerControl& workers_;
    KillHolderTarget target_;
    mutable std::mutex mutex_;
    std::optional<std::chrono::steady_clock::time_point> struck_;
};

/// The descriptor of this fault (nemesis/kill_holder_descriptor.cpp).
FaultDescriptor kill_holder_fault();

}  // namespace lockcheck
