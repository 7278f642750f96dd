// Liveness findings (docs/design.md "Checkers": liveness). Figures, not a verdict:
// this checker always answers valid; what it finds goes in `stats` and, for
// stuck locks and nodes that did not restart, in `violations` of kinds
// "stuck-lock" and "node-not-restarted" (findings that do not make
// the run invalid; docs/checkers.md explains why).
//
// stats:
//   acquires: attempts, ok, busy ("held"), failed (other errors), indeterminate,
//             success_rate = ok / attempts that completed; when some acquire
//             failed "conflict" (an optimistic recipe lost a version race):
//             conflicts and conflict_rate = conflicts / attempts;
//   latency_ms: per f (non-nemesis ops), over ops that completed (ok, fail or
//             info): count, p50, p95, p99, max (nearest-rank percentiles);
//   stuck: the longest stretch, per key and overall, in which the lock was free
//             by every holder's account but acquires were told it was held.
//             A holder claims the lock from its acquire's invoke until its release
//             completes (whatever the outcome); a holder whose process was lost
//             (lock_sessions.hpp) until its last op and, with a lease, until
//             the last acquire/renew ok + ttl; any other to the end of the history.
//             An acquire with a lease whose outcome is unknown (info: a timeout,
//             a client killed half-way) claims it from its invoke until its
//             answer + ttl (without an answer, to the end): it may have taken
//             the lock, which then frees itself when that lease runs out.
//             An attempt counts when its whole window lies outside every claim;
//             a stretch runs from the first such attempt's invoke to the last
//             one's completion between two claims (a lock without a lease whose
//             acquire ended indeterminate, a lock left with no lease by a killed
//             client, or a lock-table row nobody deletes);
//             each finding's details: key, stuck_ms and, when the key's
//             acquires asked for a lease, lease_ms (the longest they asked for);
//   recovery: for each fault, from its stop-fault's completion to the next
//             acquire ok (any key): recovery_ms, or null if none followed;
//             for a fault that restarts nodes, restart_ms {node: ms until it
//             was ready}; and nodes_not_restarted, how many nodes did not
//             come back after a fault.
// A node that did not come back after a fault (a stop-fault's
// "not_restarted", nemesis/nemesis.hpp) is a finding of kind
// "node-not-restarted", with the server's own last log line: the server
// refused what the fault left it (a damaged file), which is what the run
// asks about, so the run goes on and is checked on the history it has.
#pragma once

#include "checkers/checker_descriptor.hpp"
#include "core/history.hpp"

namespace lockcheck {

inline constexpr const char* kStuckLock = "stuck-lock";
inline constexpr const char* kNodeNotRestarted = "node-not-restarted";

/// `partner` is pair_ops(history).
CheckerResult check_liveness(const History& history, const std::vector<std::int64_t>& partner);

/// The descriptor (checkers/checker_descriptor.hpp): judges every history.
const CheckerDescriptor& liveness_checker();

/// Nearest-rank percentile (0 < p <= 100) of `sorted`, which must be non-empty and ascending.
double percentile(const std::vector<double>& sorted, double p);

}  // namespace lockcheck
