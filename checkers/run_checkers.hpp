// Runs every checker on one history. Checkers are pure: history in, findings out.
#pragma once

#include <string>
#include <vector>

#include "checkers/checker_result.hpp"
#include "checkers/exercise.hpp"
#include "core/history.hpp"

namespace lockcheck {

struct CheckReport {
    Validity valid = Validity::Valid;  ///< combined verdict of all checkers
    std::vector<CheckerResult> checkers;
    /// Why the verdict is unknown, in one line: a history with nothing to
    /// check, a run that did not exercise what it claims (checkers/exercise.hpp),
    /// or the reason of the first counting checker that could not decide
    /// (its stats.unknown_reason); empty when the verdict is not unknown, or
    /// when no checker gave a reason.
    std::string unknown_reason;
    /// What the run exercised (Exercise::figures): results.json's "exercised".
    nlohmann::json exercised = nlohmann::json::object();
    /// What the servers' own record decided (checkers/server_witness.hpp):
    /// results.json's "witness"; null when the run has no such record.
    nlohmann::json witness;
};

struct ServerRecord;

/// Runs every registered checker (checkers/checker_registry.hpp) that
/// applies to the history, in the registry's order, and combines the verdicts
/// of those that count toward it. A lock history gets mutual-exclusion,
/// resource, linearizability (advisory when the locks have leases), liveness
/// (which never changes the verdict) and release-ownership; a stock-decrement
/// history (checkers/oversell.hpp: history_is_stock) gets oversell and
/// liveness. Throws HistoryError if invokes and completions do not pair.
/// A history without a single client op proves nothing: its verdict is
/// unknown, with the reason in unknown_reason. So is a verdict the checkers
/// found valid in a run that did not exercise what `claims` and the history
/// say it tests (judge_exercise); an invalid verdict stays invalid.
/// With the servers' own record (`server_record`), the overlaps the history
/// leaves undecided are decided where the record can (apply_server_witness).
CheckReport run_checkers(const History& history, const RunClaims& claims = {},
                         const ServerRecord* server_record = nullptr);

}  // namespace lockcheck
