// Lock sessions: who held which lock, when, for how long the lease promised.
//
// A session is an acquire that completed ok and the same process's next
// release of that key. Its critical section ("core") runs from the acquire's
// ok to the release's invoke. Acquires whose outcome is unknown (info) open no
// session: they cannot prove an overlap.
//
// Re-entry: a further acquire ok by the same process on a key it holds (a
// re-entrant lock entered again, with the same owner id) extends the session
// and its lease; the session then ends at the release invoke that balances
// the first acquire (one release per entry).
//
// A holder that never released holds to the end of the history and beyond
// (held_at_end) - unless its
// process was lost: its last op in the whole history completed without
// success (info, or fail), and it never did anything again. lockcheck
// replaces such a worker under a new process number (a killed or timed-out
// worker), so that process can no longer be inside its critical section: the
// session ends at that completion. (A live holder always goes on to its
// release; only the end of a max_ops-bounded history can cut one short.)
// A holder the nemesis SIGKILLed (a kill-holder start-fault completion naming
// "worker N") holds no more from that completion on: its session ends there,
// even when the controller notices the death only later (a worker killed
// while idle in its critical section). This matters for locks that die with
// their holder's session (GET_LOCK, ephemeral nodes): the next grant may
// follow the kill within milliseconds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checkers/lease_bounds.hpp"
#include "core/history.hpp"

namespace lockcheck {

struct LockSession {
    std::string key;
    int process = 0;
    std::optional<std::string> owner;
    std::optional<std::int64_t> token;
    std::size_t acquire_invoke = 0;  ///< positions in the history
    std::size_t acquire_ok = 0;
    std::optional<std::size_t> release_invoke;  ///< none: never released
    std::optional<std::size_t> lost_at;         ///< never released and the process was lost: its last op (or its kill)
    int entries = 1;                            ///< acquires ok in this session (> 1: re-entered)
    std::int64_t start_ns = 0;                  ///< time of the acquire's ok
    std::int64_t end_ns =
        0;  ///< time of the release's invoke, of the lost process's last op (or kill), or of the last op
    /// Never released, and its process not lost: still held when the history
    /// ended. end_ns (the last record's time) is then only a lower bound: the
    /// session outlasts every record, so it overlaps a session that starts at
    /// the very last record.
    bool held_at_end = false;
    std::optional<std::int64_t> ttl_ms;  ///< none: a lock without a lease
    /// The terms of its lease in invoke order (checkers/lease_bounds.hpp):
    /// first the acquire's, then every re-entrant acquire ok and every renew
    /// not refused (ok, info or unanswered). Empty for a lock without a lease.
    std::vector<LeaseTerm> lease_terms;
    /// Which of lease_terms are renews answered ok (positions in lease_terms).
    std::vector<std::size_t> renews_ok;
    /// The renew ops behind renews_ok: (invoke, ok) positions in the history.
    std::vector<std::pair<std::size_t, std::size_t>> renew_ops;

    /// The lease was certainly valid at `at_ns` until the returned instant:
    /// the latest certain end (invoke + ttl - 1 ms) of the terms answered ok
    /// whose grant happened by `at_ns` for certain. INT64_MAX for a lock
    /// without a lease; INT64_MIN when no term had certainly begun.
    std::int64_t certainly_valid_until(std::int64_t at_ns) const;
    /// The lease certainly ended by the returned instant, counting the terms
    /// invoked before `before_ns`: each term answered ok ends it no earlier
    /// than its end_hi(); a term not answered ok (info, no answer) may have
    /// taken effect only while the lease still ran (a renew cannot revive a
    /// lost lease: one that does is flagged as renew-after-loss), so it
    /// extends the end by its ttl at most. INT64_MAX without a lease.
    std::int64_t possibly_valid_until(std::int64_t before_ns) const;
    /// Whether its grant came too late to use: the acquire's lease had
    /// certainly ended (end_hi) by the time the holder received it (its ok).
    bool late_grant() const;
};

/// The worker process a kill-holder fault killed, when `op` is that fault's
/// start-fault completion (targets ["worker N"]); nullopt for any other op.
std::optional<int> killed_worker(const Op& op);

/// Extracts every session of the history, ordered by start time.
/// `partner` is pair_ops(history).
std::vector<LockSession> extract_sessions(const History& history, const std::vector<std::int64_t>& partner);

}  // namespace lockcheck
