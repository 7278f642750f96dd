// The overlapping pairs of lock sessions, tallied without visiting each
// (docs/checkers.md, "mutual-exclusion"; docs/benchmarks.md). The same tally
// as sweep_overlaps_pairwise (checkers/overlap_tally.hpp): the same counts
// per class, the same evidence with the same classes.
//
// The sweep goes through the sessions in start order, keeping each key's
// open sessions. A new session meeting few of them (kVisitedAlone or fewer),
// or arriving before the first kFirstOverlapsKept pairs are found, or not
// countable (checkers/open_session_counts.hpp: its grant came more than its
// lease after its invoke), is paired with each as before. Otherwise its pairs
// with the open sessions whose leases are simple are counted per class by
// order statistics (O(log n) each), and only these are classified one by one:
// the open sessions of the other kinds (renewed, re-entered, rolled back),
// the first of the longest, and those that could still enter the gravest
// evidence (walked from the longest down, stopping as soon as none can).
// So a history whose n sessions all overlap costs O(n log n), not O(n^2).
#pragma once

#include <cstddef>
#include <vector>

#include "checkers/lock_sessions.hpp"
#include "checkers/overlap_tally.hpp"

namespace lockcheck {

/// A session meeting at most this many open sessions is paired with each.
inline constexpr std::size_t kVisitedAlone = 64;

/// The tally of every overlapping pair of `sessions` (extract_sessions'
/// order); `rolled_back` per session (checkers/transactional_sessions.hpp).
OverlapTally sweep_overlaps(const std::vector<LockSession>& sessions, const std::vector<bool>& rolled_back);

}  // namespace lockcheck
