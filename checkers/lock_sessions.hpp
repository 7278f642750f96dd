// Lock sessions: who held which lock, when, for how long the lease promised.
//
// A session is an acquire that completed ok and the same process's next
// release of that key. Its critical section ("core") runs from the acquire's
// ok to the release's invoke; a holder that never released holds to the end
// of the history. Acquires whose outcome is unknown (info) open no session:
// they cannot prove an overlap.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/history.hpp"

namespace lockcheck {

/// Redis and most lock services keep expiry times in whole milliseconds, so a
/// lease can end up to this much before invoke + ttl.
inline constexpr std::int64_t kLeaseGranularityNs = 1'000'000;

struct LockSession {
    std::string key;
    int process = 0;
    std::optional<std::string> owner;
    std::optional<std::int64_t> token;
    std::size_t acquire_invoke = 0;                ///< positions in the history
    std::size_t acquire_ok = 0;
    std::optional<std::size_t> release_invoke;     ///< none: held to the end of the history
    std::int64_t start_ns = 0;                     ///< time of the acquire's ok
    std::int64_t end_ns = 0;                       ///< time of the release's invoke, or of the last op
    std::optional<std::int64_t> ttl_ms;            ///< none: a lock without a lease
    /// Lease end as (acquire invoke | renew invoke) + ttl, per renew that
    /// completed ok; (time, valid-until) pairs in time order, first from the acquire.
    std::vector<std::pair<std::int64_t, std::int64_t>> lease_marks;

    /// The latest time until which the lease was certainly valid, counting only
    /// the acquire and the renews that completed ok before `at_ns`.
    /// Returns INT64_MAX for a lock without a lease.
    std::int64_t lease_valid_until(std::int64_t at_ns) const;
};

/// Extracts every session of the history, ordered by start time.
/// `partner` is pair_ops(history).
std::vector<LockSession> extract_sessions(const History& history, const std::vector<std::int64_t>& partner);

}  // namespace lockcheck
