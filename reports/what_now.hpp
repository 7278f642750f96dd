// The "What now?" part of report.html: which mitigations apply to what this
// run found (fencing, a lease longer than the pause, a delayed restart, ...),
// where the recipe's own page is, what the scenario meant to show, and the
// command that runs the same schedule again.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "checkers/run_checkers.hpp"
#include "reports/timeline_model.hpp"

namespace lockcheck {

struct WhatNow {
    std::string description;                ///< the scenario's description ("" when the spec has none)
    std::vector<std::string> mitigations;   ///< sentences, the one that covers most first
    std::string recipe_doc;                 ///< "docs/recipes/NAME.md" when the recipe has a page, else ""
    std::filesystem::path recipe_doc_file;  ///< that page in the source tree lockcheck was built from, if it is there
    std::string replay_command;             ///< "lockcheck run --replay DIR", or "" without a run directory
};

/// `spec` is the resolved spec (or null), `run_dir` the run directory ("" when unknown). Reads nothing but
/// whether the recipe's page exists.
WhatNow what_now(const CheckReport& report, const ReportModel& model, const nlohmann::json& spec,
                 const std::filesystem::path& run_dir);

}  // namespace lockcheck
