// Mutual exclusion checker with lease blame (docs/design.md, "Checkers";
// docs/checkers.md, "Whose fault an overlap is").
//
// Two lock sessions of one key whose critical sections overlap in time are a
// violation: all times come from one controller clock, so the overlap is a
// fact. Whose fault it is comes from what the record proves about both
// leases (checkers/lease_bounds.hpp), by the blame classes of
// checkers/overlap_blame.hpp: late-grant (the client used a grant whose
// lease had already ended), overlap-within-lease (both leases certainly
// valid at once: the server or the recipe broke its promise),
// overlap-lease-expired (the earlier holder's lease had certainly ended:
// the case fencing tokens exist for) and overlap-lease-uncertain (the record
// proves none of these; the description gives the bounds).
// A session whose lock is a database transaction (worker-owned resource)
// ends when its write (the commit) is invoked, and an overlap other than
// within-lease or late-grant whose earlier holder's transaction was rolled
// back is no violation: it is counted in stats.rolled_back
// (checkers/transactional_sessions.hpp).
#pragma once

#include "checkers/checker_descriptor.hpp"
#include "checkers/overlap_blame.hpp"
#include "core/history.hpp"

namespace lockcheck {

/// Checks every key. `partner` is pair_ops(history). Every overlapping pair is
/// counted (stats.overlaps, and per class: late_grant, within_lease,
/// lease_expired, lease_uncertain), but n holders that all overlap make
/// n^2 / 2 pairs, so only some are listed as violations, in the order found:
/// the first 100 found, the 100 gravest of the rest (within the lease, then
/// undecided, late grants, lease-expired; then longest; then found first) and
/// the longest of all; the rest are counted in unlisted_violations. The pairs
/// are counted without visiting each (checkers/overlap_sweep.hpp): O(n log n)
/// when the leases are simple. Memory stays linear in the history.
/// Each violation's ops are, in order: the earlier holder's acquire invoke and
/// ok, the later holder's acquire ok, and the earlier holder's release invoke
/// when it has one. A session still held when the history ended overlaps every
/// session that started while it was held, even one started at the very last
/// record (details.open_at_end when both were still held then).
CheckerResult check_mutual_exclusion(const History& history, const std::vector<std::int64_t>& partner);

/// The descriptor (checkers/checker_descriptor.hpp): judges lock histories.
const CheckerDescriptor& mutual_exclusion_checker();

}  // namespace lockcheck
