// The holder's work timed by the worker on its own clock (capability "hold",
// spec hold_timed_by "client"): what a lock client does when the application,
// not a test harness, decides how long it keeps the lock. The work lasts the
// asked milliseconds of the worker's steady clock, and ends early when the
// lock's validity - what the client computed at the grant (Redlock's
// validity time, reported as valid_ms) - runs out on that same clock first,
// as Redlock's documentation tells a client to do. A clock that runs slow
// (client-clock-skew with a rate below 1) therefore makes the work last
// longer in real time than the client believes, past the lease the servers
// keep: the failure this mode exists to show.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "recipes/worker_client.hpp"

namespace lockcheck {

/// Validity deadlines of the locks this worker holds, by owner, on its own
/// steady clock, and the hold op that respects them.
class ClientHolds {
public:
    /// After an acquire of `owner` answered `result`: remembers when its
    /// validity ends (now + valid_ms) when the client reported one.
    void granted(const std::string& owner, const LockResult& result);
    /// After a release of `owner`: forgets it.
    void released(const std::string& owner);
    /// Works `ms` milliseconds of this process's steady clock; ok when done,
    /// fail "validity-ended" when `owner`'s validity ended first (the work then
    /// stops at that instant), fail for a value that is not a duration in
    /// 0..kMaxLeaseMs.
    LockResult hold(const std::string& owner, const nlohmann::json& ms) const;

private:
    std::map<std::string, std::chrono::steady_clock::time_point> validity_ends_;
};

/// Sleeps until the steady clock reads `until`, re-reading it every few ms:
/// a clock that runs slow (or fast) stretches (or shortens) the real time it
/// takes, where std::this_thread::sleep_until on the steady clock would sleep
/// the real difference once.
void sleep_until_own_clock(std::chrono::steady_clock::time_point until);

}  // namespace lockcheck
