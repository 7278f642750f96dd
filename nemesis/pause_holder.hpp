// Fault "pause-holder": SIGSTOP the worker that holds the lock, as a
// stop-the-world GC would, then SIGCONT it when the fault ends.
//
// At the event's time it waits (up to 5 s) for a holder, waits the event's
// target_delay_ms so the pause lands inside the critical section, and pauses
// that worker if it still holds the lock; among several holders the event's
// `pick` chooses.
#pragma once

#include <mutex>

#include "nemesis/fault.hpp"
#include "nemesis/fault_descriptor.hpp"

namespace lockcheck {

class PauseHolder : public Fault {
public:
    explicit PauseHolder(WorkerControl& workers) : workers_(workers) {}
    std::string kind() const override { return "pause-holder"; }
    std::optional<std::vector<std::string>> start(const FaultEvent& event, const std::stop_token& stop) override;
    void heal() noexcept override;

private:
    WorkerControl& workers_;
    std::mutex mutex_;
    std::optional<int> paused_;
};

/// The descriptor of this fault (nemesis/pause_holder_descriptor.cpp).
FaultDescriptor pause_holder_fault();

}  // namespace lockcheck
