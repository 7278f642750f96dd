// report.html: one self-contained page (inline CSS, script and SVG; no
// network fetch) that a person reads to see what went wrong in a run: the
// verdict in plain words, a timeline per key, latency and throughput plots,
// and the checkers' summary tables.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "checkers/run_checkers.hpp"
#include "core/history.hpp"
#include "reports/timeline_model.hpp"

namespace lockcheck {

/// What the page shows besides the history: `results` is results.json (with
/// its "run" and "expectation" when present), `spec` the resolved spec.json
/// (null when unknown, e.g. a bare history), `run_dir` the run directory
/// (for the --replay command; "" when unknown), `schedule` the run's
/// nemesis-schedule.json (null when unknown: faults that never ran are then
/// not shown).
struct ReportPageInput {
    const History& history;
    const CheckReport& report;
    const nlohmann::json& results;
    const nlohmann::json& spec;
    ReportLimits limits{};
    std::filesystem::path run_dir{};
    nlohmann::json schedule = nullptr;
};

std::string render_report_html(const ReportPageInput& input);

/// Renders and writes the page atomically (core/atomic_file.hpp).
void write_report_html(const std::filesystem::path& path, const ReportPageInput& input);

}  // namespace lockcheck
