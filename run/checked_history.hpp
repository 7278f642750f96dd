// Checking a history, and everything that follows from the verdict: results.json,
// report.html and junit.xml in the run directory, and the summary on the
// terminal. The one path of both the end of `lockcheck run` (run_outputs.hpp)
// and `lockcheck check` (check_command.hpp).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "checkers/run_checkers.hpp"
#include "core/history.hpp"
#include "spec/expectation.hpp"
#include "spec/spec.hpp"

namespace lockcheck {

/// Where the outputs go and what they record beside the checkers' findings.
struct CheckContext {
    /// The run directory that gets results.json, report.html and junit.xml;
    /// none for a bare history, which gets the terminal summary only.
    std::optional<std::filesystem::path> run_dir;
    nlohmann::json run;                 ///< results.json's "run" (the run's own figures); null: left out
    std::optional<Expectation> expect;  ///< the scenario's expectation, judged into results.json's "expectation"
    /// The resolved spec, for the reports and for the faults the run asked
    /// for (checkers/exercise.hpp); null when unknown (a bare history: the
    /// history's own fault ops then say whether a nemesis ran).
    nlohmann::json spec;
    /// Without `expect`: why the scenario's expectation does not apply to this
    /// run; results.json's "expectation" is then {"applies": false, "reason": ...}.
    std::optional<std::string> expectation_not_applicable = {};
};

/// What the checkers concluded, as recorded.
struct CheckedHistory {
    CheckReport report;
    nlohmann::json results;                         ///< what results.json holds (written when there is a run directory)
    std::optional<ExpectationOutcome> expectation;  ///< when the context had an expectation
};

/// Runs every checker on `history`, writes results.json and the reports
/// (run_reports.hpp) into `context.run_dir` when there is one, prints the
/// terminal summary on stdout, and returns the findings. Throws HistoryError
/// as run_checkers does, before anything is written.
CheckedHistory check_history(const History& history, const CheckContext& context);

}  // namespace lockcheck
