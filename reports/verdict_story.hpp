// The verdict of a run in plain words, for the top of report.html: which
// lock, what overlapped, for how long, under which fault.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "checkers/run_checkers.hpp"
#include "reports/timeline_model.hpp"

namespace lockcheck {

struct VerdictStory {
    std::string verdict;             ///< "valid" | "invalid" | "unknown"
    std::string headline;            ///< e.g. "INVALID: two clients held the same lock at the same time"
    std::vector<std::string> lines;  ///< sentences, the most telling first
    int worst_violation = -1;        ///< index into model.violations the first line is about, or -1
};

/// `spec` is the run's resolved spec.json (or null): it names the recipe,
/// topology and lease in the story.
VerdictStory tell_verdict(const CheckReport& report, const ReportModel& model, const nlohmann::json& spec);

}  // namespace lockcheck
