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
// held the lock when the busy attempt was invoked - and in a world that every
// later grant of K fits: its hold must be able to end before each grant of K
// invoked after the busy answer completed was answered. The hold ends at the
// earliest when its lease lapses (invoke + ttl - 1 ms) or, once the client
// had its info answer, when the client undid it (from that answer on). An
// acquire never answered cannot have been undone: a grant 5 us after the busy
// answer, with 1000 ms leases, leaves it no world, and the busy answer stays
// a finding.
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
    /// over when `busy` was invoked, and its hold able to end before every
    /// later grant was answered. `busy` must be definite.
    bool explains(const LockOp& busy) const;

private:
    const History& history_;
    /// One indeterminate acquire: its invoke's history position, the latest
    /// its lease can have lasted (INT64_MAX: unbounded), and the earliest its
    /// hold can have ended (lease lapse, or the client undoing it).
    struct Candidate {
        std::int32_t invoke = 0;
        std::int64_t reach_ns = 0;
        std::int64_t earliest_end_ns = 0;
    };
    std::vector<Candidate> candidates_;  ///< in invoke order
    /// Definite grants of the key: (invoke time, answer time), by invoke time,
    /// and the earliest answer among grants from position i on.
    std::vector<std::pair<std::int64_t, std::int64_t>> grants_;
    std::vector<std::int64_t> earliest_answer_from_;

    /// The earliest answer of a grant invoked at or after `from_ns` (INT64_MAX: none).
    std::int64_t earliest_later_grant(std::int64_t from_ns) const;
};

}  // namespace lockcheck
