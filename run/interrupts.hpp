// Turns SIGINT, SIGTERM and SIGHUP into a stop request that every wait of the
// run listens to (core/interruptible_sleep.hpp), so an interrupted run ends
// within moments, yet still heals its faults, stops its processes, removes
// its network and checks what it recorded. Construct it in main before any other thread starts: it blocks
// those signals in the calling thread (and so in every thread created later)
// and ignores SIGPIPE (a dead worker shows up as a failed write instead).
#pragma once

#include <atomic>
#include <stop_token>
#include <thread>

namespace lockcheck {

class InterruptWatcher {
public:
    InterruptWatcher();
    ~InterruptWatcher();
    InterruptWatcher(const InterruptWatcher&) = delete;
    InterruptWatcher& operator=(const InterruptWatcher&) = delete;

    /// Stopped once a signal arrived.
    std::stop_token interrupted() const { return interrupted_.get_token(); }
    /// The signal received, or 0.
    int signal() const { return signal_; }

private:
    std::stop_source interrupted_;
    std::atomic<int> signal_{0};
    std::atomic<bool> done_{false};
    std::thread thread_;
};

}  // namespace lockcheck
