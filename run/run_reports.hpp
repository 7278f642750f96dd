// The files for people and CI that a run directory gets beside results.json:
// report.html and junit.xml. Written at the end of `lockcheck run` and
// rewritten by `lockcheck check`.
#pragma once

#include <filesystem>

#include <nlohmann/json.hpp>

#include "checkers/run_checkers.hpp"
#include "core/history.hpp"

namespace lockcheck {

/// Writes DIR/report.html and DIR/junit.xml. `results` is what results.json
/// holds, `spec` the resolved spec (or null). A file that cannot be written is
/// reported on stderr in one line; the run's verdict stands.
void write_run_reports(const std::filesystem::path& dir, const History& history, const CheckReport& report,
                       const nlohmann::json& results, const nlohmann::json& spec);

}  // namespace lockcheck
