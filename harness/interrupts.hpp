// Turns SIGINT, SIGTERM and SIGHUP into a flag the run loop polls, so an
// interrupted run still heals its faults, stops its processes and removes its
// network. Construct it in main before any other thread starts: it blocks
// those signals in the calling thread (and so in every thread created later)
// and ignores SIGPIPE (a dead worker shows up as a failed write instead).
#pragma once

#include <atomic>
#include <thread>

namespace lockcheck {

class InterruptWatcher {
public:
    InterruptWatcher();
    ~InterruptWatcher();
    InterruptWatcher(const InterruptWatcher&) = delete;
    InterruptWatcher& operator=(const InterruptWatcher&) = delete;

    const std::atomic<bool>& interrupted() const { return interrupted_; }
    /// The signal received, or 0.
    int signal() const { return signal_; }

private:
    std::atomic<bool> interrupted_{false};
    std::atomic<int> signal_{0};
    std::atomic<bool> done_{false};
    std::thread thread_;
};

}  // namespace lockcheck
