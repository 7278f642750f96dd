// Linearizability of the lock (mutex) model, per key, owner-aware
// (docs/design.md "Checkers"; docs/checkers.md, "linearizability").
//
// The model is in checkers/lock_ops.hpp: acquire takes effect only on a free
// lock, release only by the holder, a fail did not take effect (but an acquire
// failing "held" is a busy answer: the lock was held at some moment of it),
// info may take effect at any moment after its invoke or never. There are no
// leases here: a lease that expires without a release looks like a violation
// (Jepsen's strict verdict); the mutual-exclusion checker separates the cases.
// Ops that are not acquire/release (renew, read, write, nemesis) are ignored.
// Real-time order is history order: an op precedes another when its completion
// comes before the other's invoke in the history.
//
// Each key is decided by the O(n log n) fast path when its ops stay inside the
// owner fragment (lock_fast_check.hpp), else by the budgeted frontier search
// (lock_search.hpp), which answers Unknown, never Valid, when the budget runs
// out. A Valid key carries a certificate (a linearization) that has been
// replayed through the model; an Invalid key names small sets of ops that cannot
// be linearized. Violation ops are history indices (Op::index), invokes and
// completions.
#pragma once

#include <cstddef>

#include "checkers/checker_descriptor.hpp"
#include "core/history.hpp"

namespace lockcheck {

struct LinearizabilityOptions {
    bool force_search = false;              ///< decide every key by the search (tests compare both paths)
    std::size_t search_budget = 5'000'000;  ///< configurations per key before answering Unknown
    std::size_t max_findings = 20;          ///< findings listed per key (all are counted)
    /// Locks with leases: a busy-while-free answer that an indeterminate
    /// acquire explains (checkers/indeterminate_cover.hpp) is not a finding;
    /// it is counted in stats.explained_by_indeterminate_acquires and listed
    /// (kMaxListedExplained at most) in stats.explained_findings.
    bool explain_by_indeterminate_acquires = false;
};

/// The most explained answers stats.explained_findings lists.
inline constexpr std::size_t kMaxListedExplained = 20;

/// `partner` is pair_ops(history).
CheckerResult check_linearizability(const History& history, const std::vector<std::int64_t>& partner,
                                    const LinearizabilityOptions& options = {});

/// The descriptor (checkers/checker_descriptor.hpp): judges lock histories.
/// The strict verdict models a lock without leases. When the history's
/// acquires ask for a lease (ttl_ms), a lease that expires under a holder is
/// correct behaviour that the strict model calls a double grant, so there the
/// result is an advisory cross-check (counts_toward_verdict false, the reason
/// in stats.advisory) and the mutual-exclusion checker's lease classification
/// judges the lock; there, busy answers that indeterminate acquires explain
/// are listed apart from the findings (explain_by_indeterminate_acquires).
const CheckerDescriptor& linearizability_checker();

/// True when some acquire in the history asked for a lease.
bool history_uses_leases(const History& history);

}  // namespace lockcheck
