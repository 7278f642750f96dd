// Which busy answers an indeterminate acquire explains when the locks have
// leases (docs/checkers.md, "linearizability", "Quiet advisories").
//
// The strict lock model lets an indeterminate acquire (info, or no reply)
// take effect at any moment after its invoke, but then its owner holds the
// lock forever: its owner never releases, so it can only be placed after every
// later grant, and a busy answer between two grants finds the lock free in
// every linearization ("busy-while-free"). With leases that is not what
// happens: the server may have granted the indeterminate acquire and the
// lease lapsed (or the client undid it) a ttl later, and meanwhile other
// clients were told the lock was held. Such a busy answer is explained, not a
// finding: an indeterminate acquire of key K, invoked before the busy answer
// completed, asking for a lease of ttl_ms, whose grant (at the latest when
// its info was recorded; never, if the run ended first) could still have
// held the lock when the busy attempt was invoked.
#pragma once

#include <cstdint>
#include <vector>

#include "checkers/lock_ops.hpp"
#include "core/history.hpp"

namespace lockcheck {

class IndeterminateCover {
public:
    /// The indeterminate acquires of `key` (ops of `history`, which must
    /// outlive the cover) that asked for a lease.
    IndeterminateCover(const History& history, const KeyLockOps& key);

    /// Whether some indeterminate acquire could have held the lock at a
    /// moment of `busy`'s window: invoked before `busy` completed, and its
    /// lease (counted from its completion, or unbounded without one) not
    /// over when `busy` was invoked. `busy` must be definite.
    bool explains(const LockOp& busy) const;

private:
    const History& history_;
    std::vector<std::int32_t> invokes_;  ///< history positions of the indeterminate acquires' invokes, ascending
    std::vector<std::int64_t> reach_;    ///< ns: the latest lease end among invokes_[0..i] (INT64_MAX: unbounded)
};

}  // namespace lockcheck
