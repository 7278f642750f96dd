// Fault "pause-client": SIGSTOP one worker, as a stop-the-world GC pause
// strikes any process, then SIGCONT it when the fault ends (at the heal,
// which the nemesis also runs when the run is interrupted).
//
// Unlike pause-holder it does not wait for a holder: with
// pause_client_target "any" (the default) the event's pick chooses among
// every live worker (holders, waiters and thinkers); with "waiting" among the
// workers whose acquire has been in flight for at least
// pause_client_waiting_for_ms (a waiter whose session or lease may expire
// while it waits), waiting up to 5 s for one. Target: "worker N".
#pragma once

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>

#include "nemesis/fault.hpp"
#include "nemesis/fault_descriptor.hpp"

namespace lockcheck {

/// Which workers pause-client may strike.
struct PauseClientTarget {
    bool waiting_only = false;                      ///< "waiting": only workers with an acquire in flight
    std::chrono::milliseconds waiting_for{0};       ///< ... for at least this long
};

/// The workers `target` may strike now, as `workers` reports them.
std::vector<int> pause_client_candidates(const WorkerControl& workers, const PauseClientTarget& target);

class PauseClient : public Fault {
public:
    PauseClient(WorkerControl& workers, PauseClientTarget target) : workers_(workers), target_(target) {}
    std::string kind() const override { return "pause-client"; }
    std::optional<std::vector<std::string>> start(const FaultEvent& event, const std::stop_token& stop) override;
    void heal() noexcept override;

private:
    WorkerControl& workers_;
    PauseClientTarget target_;
    std::mutex mutex_;
    std::optional<int> paused_;
};

/// The descriptor of this fault (nemesis/pause_client_descriptor.cpp).
FaultDescriptor pause_client_fault();

}  // namespace lockcheck
