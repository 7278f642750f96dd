// Turns a failed search into a small proof: a set of ops whose sub-history
// alone cannot be linearized.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "checkers/lock_ops.hpp"
#include "checkers/lock_search.hpp"

namespace lockcheck {

/// The ops of the ambiguous window that ends at the failed op: those invoked
/// after the last point where the lock was certainly free with nothing pending
/// (every linearization of the prefix reaches that point in that state, so the
/// window alone, started from a free lock, cannot be linearized either - a
/// sound proof), plus the op whose completion made that point (context).
/// Ops still running when the failed op completed count as indeterminate.
/// The window is shrunk by removing busy answers other than the failed op
/// while it stays non-linearizable: a busy answer only constrains, so removing
/// it keeps the proof sound (removing an acquire or a release would not).
/// Indices into key.ops, in invoke order. `budget` bounds each trial search;
/// windows over 4096 ops are returned unshrunk.
std::vector<std::uint32_t> shrink_witness(const KeyLockOps& key, const SearchOutcome& failed, std::size_t budget);

/// The sub-history of `key` made of the ops `subset` (in invoke order), with
/// ops completing after position `cut` turned indeterminate; owners renumbered.
KeyLockOps sub_history(const KeyLockOps& key, const std::vector<std::uint32_t>& subset, std::int64_t cut);

}  // namespace lockcheck
