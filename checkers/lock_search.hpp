// Exact, budgeted linearizability search for one key's lock ops, for histories
// outside the fast fragment (owners reused, re-entrant acquires, releases after
// indeterminate acquires, ...). docs/checkers.md, "The search".
//
// It walks the history once, keeping the *frontier*: every distinct
// configuration (holder, ops invoked but not yet linearized) some linearization
// of the prefix can be in. At each completion of a definite op the frontier is
// advanced just far enough to linearize that op. Where the history forces the
// lock's state the frontier collapses to one configuration, so the work is
// spent on the ambiguous windows only. Lock-specific reductions keep
// indeterminate ops from multiplying it:
//   - busy answers are linearized as soon as the lock is held (they change nothing);
//   - an owner with no later ops and no pending release holds "forever" (one state);
//   - pending indeterminate acquires of such owners are interchangeable (one flag);
//   - a pending indeterminate release that can never apply is dropped.
// When the number of configurations explored exceeds the budget the answer is
// Unknown, never Valid.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "checkers/checker_result.hpp"
#include "checkers/lock_certificate.hpp"
#include "checkers/lock_ops.hpp"

namespace lockcheck {

struct SearchOutcome {
    Validity valid = Validity::Valid;
    Certificate certificate;             ///< a linearization, when valid
    std::int64_t failed_op = -1;         ///< when invalid: the op whose completion no configuration could reach
    std::int64_t window_start = 0;       ///< when invalid: history position after the last point where the
                                         ///< lock was certainly free with nothing pending
    std::int64_t free_forever_rep = -1;  ///< an indeterminate acquire pending at that point (may matter), or -1
    std::size_t configs = 0;             ///< configurations explored
    std::string note;                    ///< why unknown
};

/// Decides the key; `budget` bounds the configurations explored.
SearchOutcome search_key(const KeyLockOps& key, std::size_t budget);

}  // namespace lockcheck
