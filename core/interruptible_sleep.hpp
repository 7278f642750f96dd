// Sleeps that end early when a stop is requested: every wait of the harness
// (hold and think times, the fault schedule, settle and readiness waits) goes
// through these, so Ctrl-C or the end of a run never waits out a long sleep.
#pragma once

#include <chrono>
#include <functional>
#include <stop_token>

namespace lockcheck {

/// Sleeps until `when`, or until a stop is requested on `stop` (at once if it
/// already was). True when it slept the whole time, false when stopped.
bool interruptible_sleep_until(const std::stop_token& stop, std::chrono::steady_clock::time_point when);

/// interruptible_sleep_until(stop, now + `duration`).
bool interruptible_sleep_for(const std::stop_token& stop, std::chrono::steady_clock::duration duration);

/// Calls `done` every `period` until it returns true (then true), or until
/// `timeout` has passed or a stop is requested on `stop` (then false).
bool poll_until(const std::function<bool()>& done, std::chrono::steady_clock::duration timeout,
                std::chrono::steady_clock::duration period, const std::stop_token& stop);

}  // namespace lockcheck
