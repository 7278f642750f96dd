// Mutual exclusion checker with lease classification (docs/design.md, "Checkers").
//
// Two lock sessions of one key whose critical sections overlap in time are a
// violation: all times come from one controller clock, so the overlap is a
// fact. Each overlap is classified by the earlier holder's lease at the moment
// the later holder's acquire completed:
//   - "overlap-within-lease": the earlier lease was certainly still valid (or
//     the lock has no lease): the lock service broke its promise (failover,
//     clock jump, crash-restart);
//   - "overlap-lease-expired": the earlier holder may have outlived its lease
//     (a client paused past its TTL): the case fencing tokens exist for.
// A lease is certainly valid until (acquire or renew invoke) + ttl - 1 ms, counting
// only the acquire and renews that completed before the moment in question.
// A session whose lock is a database transaction (worker-owned resource)
// ends when its write (the commit) is invoked, and a lease-expired overlap
// whose earlier holder's transaction was rolled back is no violation: it is
// counted in stats.rolled_back (checkers/transactional_sessions.hpp).
#pragma once

#include "checkers/checker_descriptor.hpp"
#include "core/history.hpp"

namespace lockcheck {

inline constexpr const char* kOverlapWithinLease = "overlap-within-lease";
inline constexpr const char* kOverlapLeaseExpired = "overlap-lease-expired";

/// Checks every key. `partner` is pair_ops(history). Every overlapping pair is
/// counted (stats.overlaps, within_lease, lease_expired), but n holders that
/// all overlap make n^2 / 2 pairs, so only some are listed as violations, in
/// the order found: the first 100 found, the 100 gravest of the rest (within
/// the lease before lease-expired, then longest) and the longest of all; the
/// rest are counted in unlisted_violations. Memory stays linear in the history.
/// Each violation's ops are, in order: the earlier holder's acquire invoke and
/// ok, the later holder's acquire ok, and the earlier holder's release invoke
/// when it has one. A session still held when the history ended overlaps every
/// session that started while it was held, even one started at the very last
/// record (details.open_at_end when both were still held then).
CheckerResult check_mutual_exclusion(const History& history, const std::vector<std::int64_t>& partner);

/// The descriptor (checkers/checker_descriptor.hpp): judges lock histories.
const CheckerDescriptor& mutual_exclusion_checker();

}  // namespace lockcheck
