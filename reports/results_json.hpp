// results.json: the verdict and every checker's findings, for machines;
// written once (results_to_json) and read back in one place (results_from_json).
//
//   {"valid": true|false|"unknown", "unknown_reason": "..." (only when set),
//    "exercised": {"acquire_attempts", "acquires_granted", ..., "faults_asked", "faults_struck", ...}
//                 (only when the history has acquires or faults; checkers/exercise.hpp),
//    "checkers": {"<name>": {"valid": ..., "violations": [{"kind", "ops", "description", "details"}],
//                            "violations_total": N, "counts_toward_verdict": true|false, "stats": {...}}},
//    ... plus what the run adds (run/checked_history.cpp):
//    "run": {"seed", "ops", "faults", "seconds", "interrupted", "stopped_early", "client", ...},
//    "expectation": {"matched", "mismatches"} or {"applies": false, "reason"}}
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "checkers/run_checkers.hpp"

namespace lockcheck {

/// At most this many violations per checker are listed; violations_total counts all.
inline constexpr std::size_t kMaxListedViolations = 1000;

nlohmann::json results_to_json(const CheckReport& report);

/// The JSON in `path`, or null when the file is missing, not a regular file
/// (core/regular_file.hpp), not valid JSON or
/// nested deeper than kMaxJsonDepth (core/json_text.hpp).
nlohmann::json read_json_or_null(const std::filesystem::path& path);

/// results.json that does not read as results: what() is one line naming the
/// file (or "results.json") and what is wrong with it.
class ResultsError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A run that `--stop-on-decided` ended early: "run"."stopped_early".
struct RecordedEarlyStop {
    std::string reason;
    std::int64_t ops = 0;
    double seconds = 0;
};

/// results.json's "run": the run's own figures (run/run_outputs.cpp).
struct RecordedRun {
    std::optional<std::uint64_t> seed;
    std::int64_t ops = 0;
    std::int64_t faults = 0;
    double seconds = 0;
    bool interrupted = false;
    std::optional<RecordedEarlyStop> stopped_early;
    std::string client;  ///< the workers' hello
};

/// results.json's "expectation": whether the scenario's `expect` was met.
struct RecordedExpectation {
    bool applies = true;                  ///< false: the run was not the scenario's (`reason` says why)
    bool matched = false;                 ///< when it applies
    std::vector<std::string> mismatches;  ///< one sentence each, when not matched
    std::string reason;                   ///< why it does not apply
};

/// What a run recorded in results.json, typed.
struct RecordedResults {
    /// The verdict, its unknown reason, what was exercised and every checker
    /// in name order, with the violations listed (the rest counted in
    /// unlisted_violations, so violations_total() is results.json's count).
    /// Checkers' `seconds` are not recorded and read as 0.
    CheckReport report;
    std::optional<RecordedRun> run;                  ///< none when results.json has no "run"
    std::optional<RecordedExpectation> expectation;  ///< none when the spec had no `expect`

    /// The checker named `name`; nullptr when results.json has none.
    const CheckerResult* checker(std::string_view name) const;
    /// The kinds (not empty) of the listed violations of the checkers that count toward the verdict.
    std::set<std::string> violation_kinds() const;
    /// The violations of the checkers that count toward the verdict, listed or not.
    std::int64_t counted_violations_total() const;
};

/// Reads results.json's JSON. Every field but "valid" may be absent and then
/// takes its default (no checkers, no run, ...); one present with the wrong
/// type or value throws ResultsError, "SOURCE: FIELD is ..., not ..." (`source`
/// names the file in the message).
RecordedResults results_from_json(const nlohmann::json& results, std::string_view source = "results.json");
/// The results a run wrote; none when `results` is null (results.json was not
/// written or did not parse: RunOutcome::results). Throws as results_from_json.
std::optional<RecordedResults> written_results(const nlohmann::json& results);
/// Reads the file `path`: throws ResultsError naming it when it is missing,
/// no regular file, not JSON or not results.
RecordedResults read_results_file(const std::filesystem::path& path);

}  // namespace lockcheck
