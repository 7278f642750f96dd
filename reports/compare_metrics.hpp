// What `lockcheck compare` measures per run and per grid cell, read from each
// run's results.json: violations, overlaps within the lease vs after it
// expired, lost updates, and the share of acquires granted.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/results_json.hpp"

namespace lockcheck {

struct RunMetrics {
    std::string verdict = "error";   ///< valid | invalid | unknown | error (no results.json)
    std::int64_t violations = 0;     ///< over the checkers that count toward the verdict
    std::int64_t within_lease = 0;   ///< mutual-exclusion overlaps while the earlier lease was valid
    std::int64_t lease_expired = 0;  ///< overlaps after the earlier lease expired
    std::int64_t lost_updates = 0;
    double acquire_success_rate = 0;  ///< granted / attempts
    std::string run_dir;              ///< the run's directory, relative to the compare directory ("" when none)
};

/// The figures of one run from its results.json (none: the run produced no
/// verdict). `run_dir` is stored relative to `compare_dir`, so that
/// compare.html links each run's report.html wherever the directory is moved.
RunMetrics metrics_from_results(const std::optional<RecordedResults>& results,
                                const std::filesystem::path& run_dir = {},
                                const std::filesystem::path& compare_dir = {});

struct CellSummary {
    std::string label;
    std::vector<RunMetrics> runs;
    int invalid_runs = 0;
    int failed_runs = 0;  ///< runs that produced no verdict
    double violations_per_run = 0;
    double within_lease_per_run = 0;
    double lease_expired_per_run = 0;
    double lost_updates_per_run = 0;
    double acquire_success_rate = 0;  ///< mean over runs with a verdict
};

/// Means over the runs that produced a verdict.
CellSummary summarize_cell(const std::string& label, const std::vector<RunMetrics>& runs);

nlohmann::json cell_to_json(const CellSummary& cell);

}  // namespace lockcheck
