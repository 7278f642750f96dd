// The lock model's view of a history: per key, the acquires and releases that
// can matter to linearizability, with interned owners and history positions.
// It borrows from the history rather than copying: the owners' names are
// read from its ops (checkers/owner_names.hpp), so the history must outlive
// the KeyLockOps made of it.
//
// The model (docs/checkers.md, "linearizability"): a key's lock is free or
// held by one owner.
//   acquire ok         takes effect only on a free lock; the owner then holds it;
//   acquire fail held  a definite busy answer: the lock was held (by anyone) at
//                      some moment inside the op;
//   release ok         takes effect only when the releasing owner holds it; the
//                      lock is then free;
//   info / no completion  may take effect at any moment after the invoke (even
//                      after the info was recorded), or never;
//   any other fail     did not take effect and constrains nothing (dropped here);
//   a kill-holder kill of a process that may hold the lock (its acquire ok or
//                      info, no release invoked yet): a release of unknown
//                      outcome by that owner, invoked at the kill's completion
//                      (the lock may die with its holder, later, or never).
// renew, resource and nemesis ops are not part of the model.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "checkers/owner_names.hpp"
#include "core/history.hpp"

namespace lockcheck {

/// A position that never comes: the deadline of an op that may take effect late.
inline constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();
/// Owner id of the "free" state.
inline constexpr std::int32_t kFree = -1;

enum class LockOpKind : std::uint8_t { Acquire, Release };
enum class LockOutcome : std::uint8_t {
    Ok,       ///< took effect inside its window
    Busy,     ///< acquire answered "held": lock held at some moment of its window
    Unknown,  ///< info, or no completion: may take effect after its invoke, or never
};

/// The most history positions the lock model takes: a LockOp holds a
/// position in 32 bits, which keeps it at 16 bytes (a big history has
/// millions). A history that long would need some 240 GB for its ops alone.
inline constexpr std::size_t kMaxLockModelPositions = std::numeric_limits<std::int32_t>::max();

struct LockOp {
    LockOpKind kind = LockOpKind::Acquire;
    LockOutcome outcome = LockOutcome::Ok;
    std::int32_t owner = 0;         ///< interned per key, see KeyLockOps::owners
    std::int32_t invoke = 0;        ///< history position of the invoke
    std::int32_t complete = kNoOp;  ///< history position of the completion, kNoOp if none

    /// The op must take effect strictly before this position (kNever for Unknown).
    std::int64_t deadline() const { return outcome == LockOutcome::Unknown ? kNever : complete; }
    bool definite() const { return outcome != LockOutcome::Unknown; }
};

/// The lock ops of one key in invoke order.
struct KeyLockOps {
    std::string key;
    std::vector<LockOp> ops;
    /// Owner id -> name, read from the op of the history that named the
    /// owner first: a view into that op, or into the process-wide symbol
    /// table ("process N" for an op without an owner).
    OwnerNames owners;
    /// Some op carried no owner; its process number stands in ("process N"),
    /// which usually makes owners repeat and the key leave the fast fragment.
    bool synthetic_owners = false;
};

/// Extracts the model ops of every key, keys in order of first appearance.
/// `partner` is pair_ops(history). Owner of an op: the invoke's `owner`, else
/// the completion's, else "process N". The result refers to `history` (see
/// above). Each key's lists are allocated once, at a size counted first.
/// Throws std::length_error for a history of more than kMaxLockModelPositions ops.
std::vector<KeyLockOps> collect_lock_ops(const History& history, const std::vector<std::int64_t>& partner);

/// Both history positions of an op (the completion only if it exists), for findings.
void append_positions(const LockOp& op, std::vector<std::int64_t>& out);

}  // namespace lockcheck
