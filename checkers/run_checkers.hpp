// Runs every checker on one history. Checkers are pure: history in, findings out.
#pragma once

#include <vector>

#include "checkers/checker_result.hpp"
#include "core/history.hpp"

namespace lockcheck {

struct CheckReport {
    Validity valid = Validity::Valid;  ///< combined verdict of all checkers
    std::vector<CheckerResult> checkers;
};

/// Runs all checkers in a fixed order: mutual-exclusion, resource,
/// linearizability, liveness (which never changes the verdict). Throws HistoryError if the history's
/// invokes and completions do not pair.
CheckReport run_checkers(const History& history);

}  // namespace lockcheck
