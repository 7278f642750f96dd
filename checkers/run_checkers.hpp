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

/// Runs every registered checker (checkers/checker_registry.hpp) that
/// applies to the history, in the registry's order, and combines the verdicts
/// of those that count toward it. A lock history gets mutual-exclusion,
/// resource, linearizability (advisory when the locks have leases), liveness
/// (which never changes the verdict) and release-ownership; a stock-decrement
/// history (checkers/oversell.hpp: history_is_stock) gets oversell and
/// liveness. Throws HistoryError if invokes and completions do not pair.
/// A history without a single client op proves nothing: its verdict is
/// unknown, with the reason in unknown_reason.
CheckReport run_checkers(const History& history);

}  // namespace lockcheck
