// One run started by another command (suite, compare): runs a spec into a
// store of its own and reads back what it left, so the caller knows the run
// directory without racing other runs for STORE/latest.
#pragma once

#include <filesystem>

#include <nlohmann/json.hpp>

#include "harness/run.hpp"
#include "harness/spec.hpp"
#include "reports/results_json.hpp"

namespace lockcheck {

struct CollectedRun {
    int exit_code = 0;               ///< as `lockcheck run` would exit
    std::filesystem::path run_dir;   ///< empty when the run made none
    nlohmann::json results;          ///< results.json, or null
    double seconds = 0;              ///< wall time of the whole run
};

/// Runs `spec` with `options`, its run directory under `store` (a directory
/// for this run alone). A SpecError becomes exit code 254 with the message on
/// stderr; the caller goes on with its next run.
CollectedRun run_and_collect(const Spec& spec, RunOptions options, const std::filesystem::path& store);

}  // namespace lockcheck
