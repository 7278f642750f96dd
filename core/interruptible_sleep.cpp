#include "core/interruptible_sleep.hpp"

#include <algorithm>
#include <condition_variable>
#include <mutex>

namespace lockcheck {

bool interruptible_sleep_until(const std::stop_token& stop, std::chrono::steady_clock::time_point when) {
    // A time already past (a hold or think time of 0) is no sleep: the wait below would still cost a
    // futex call and a context switch, once or twice per lock cycle.
    if (std::chrono::steady_clock::now() >= when) return !stop.stop_requested();
    std::mutex mutex;
    std::condition_variable_any wake;
    std::unique_lock lock(mutex);
    // Nothing but the stop request (or the deadline) ends this wait.
    wake.wait_until(lock, stop, when, [] { return false; });
    return !stop.stop_requested();
}

bool interruptible_sleep_for(const std::stop_token& stop, std::chrono::steady_clock::duration duration) {
    return interruptible_sleep_until(stop, std::chrono::steady_clock::now() + duration);
}

bool poll_until(const std::function<bool()>& done, std::chrono::steady_clock::duration timeout,
                std::chrono::steady_clock::duration period, const std::stop_token& stop) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!stop.stop_requested()) {
        if (done()) return true;
        const auto now = std::chrono::steady_clock::now();
        if (now >= deadline) return false;
        interruptible_sleep_until(stop, std::min(now + period, deadline));
    }
    return false;
}

}  // namespace lockcheck
