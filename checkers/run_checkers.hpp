// Runs every checker on one history. Checkers are pure: history in, findings out.
#pragma once

#include <string>
#include <vector>

#include "checkers/checker_result.hpp"
#include "core/history.hpp"

namespace lockcheck {

struct CheckReport {
    Validity valid = Validity::Valid;  ///< combined verdict of all checkers
    std::vector<CheckerResult> checkers;
    /// Why the verdict is unknown when no checker made it so (e.g. a history
    /// with nothing to check); empty otherwise.
    std::string unknown_reason;
};

/// Runs all checkers in a fixed order: mutual-exclusion, resource,
/// linearizability, liveness (which never changes the verdict),
/// release-ownership, and combines their verdicts. A stock-decrement history
/// (checkers/oversell.hpp: history_is_stock) is not a lock history: it gets
/// the oversell checker and liveness only. Throws HistoryError if invokes and completions do not pair.
/// A history without a single client op proves nothing: its verdict is
/// unknown, with the reason in unknown_reason.
///
/// The strict linearizability verdict models a lock without leases. When the
/// history's acquires ask for a lease (ttl_ms), a lease that expires under a
/// holder is correct behaviour that the strict model calls a double grant, so
/// there linearizability is reported as an advisory cross-check and the
/// mutual-exclusion checker's lease classification judges the lock.
CheckReport run_checkers(const History& history);

/// True when some acquire in the history asked for a lease.
bool history_uses_leases(const History& history);

}  // namespace lockcheck
