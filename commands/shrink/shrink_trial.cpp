#include "commands/shrink/shrink_trial.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>

#include "core/atomic_file.hpp"
#include "run/child_run.hpp"
#include "run/exit_codes.hpp"
#include "commands/shrink/shrink_input.hpp"
#include "reports/results_json.hpp"

namespace lockcheck {

bool reproduces(const RunOutcome& run, const std::string& kind) {
    if (run.verdict != Validity::Invalid) return false;
    const auto results = written_results(run.results);
    return results && results->violation_kinds().count(kind) > 0;
}

bool kept(const Trial& trial, int runs) { return trial.reproduced >= std::max(1, runs - 1); }

namespace {

/// The last "lockcheck: error:" line of a child's console log, or "" without one.
std::string error_line_of(const std::filesystem::path& console) {
    std::ifstream in(console);
    std::string line, last;
    while (std::getline(in, line))
        if (line.rfind("lockcheck: error:", 0) == 0) last = line;
    return last;
}

/// Why `run`, which did not reproduce, could not run as planned: it exited
/// 254 (refused) or 255 (the harness failed, or every worker stopped).
std::string failed_to_run(const RunOutcome& run, const std::filesystem::path& console) {
    if (run.exit_code != exit_code::kBadInput && run.exit_code != exit_code::kHarnessError) return "";
    const std::string error = error_line_of(console);
    return fmt::format("a run exited {} ({}; console log {})", run.exit_code,
                       error.empty() ? "no error line" : error, console.string());
}

}  // namespace

Trial run_trial(const Spec& spec, const TrialPlan& plan) {
    write_json_file(plan.spec_file, spec_to_json(spec));
    std::filesystem::create_directories(plan.options.store);
    Trial trial;
    const int needed = std::max(1, plan.runs - 1);
    for (int r = 0; r < plan.runs; ++r) {
        if (plan.stop_when_refused && trial.reproduced + (plan.runs - r) < needed) break;
        if (plan.options.interrupted.stop_requested()) {
            trial.interrupted = true;
            break;
        }
        const auto console = plan.spec_file.parent_path() /
                             (plan.spec_file.stem().string() + "-run" + std::to_string(r + 1) + ".log");
        const RunOutcome run = run_in_child({plan.spec_file, std::nullopt, console}, plan.options);
        if (!run.run_dir.empty()) trial.run_dirs.push_back(run.run_dir);
        if (run.interrupted || plan.options.interrupted.stop_requested()) {
            trial.interrupted = true;
            break;
        }
        if (!reproduces(run, plan.kind)) {
            trial.failed_to_run = failed_to_run(run, console);
            if (!trial.failed_to_run.empty()) break;
            ++trial.runs;
            continue;
        }
        ++trial.runs;
        ++trial.reproduced;
        if (trial.failing_run_dir.empty()) trial.failing_run_dir = run.run_dir;
        if (const auto first = first_violation_seconds(run)) trial.first_violation_seconds.push_back(*first);
    }
    return trial;
}

nlohmann::json trial_to_json(const Trial& trial) {
    nlohmann::json dirs = nlohmann::json::array();
    for (const auto& d : trial.run_dirs) dirs.push_back(d.string());
    return {{"runs", trial.runs},
            {"reproduced", trial.reproduced},
            {"interrupted", trial.interrupted},
            {"failed_to_run", trial.failed_to_run.empty() ? nlohmann::json(nullptr) : nlohmann::json(trial.failed_to_run)},
            {"first_violation_seconds", trial.first_violation_seconds},
            {"run_dirs", dirs}};
}

}  // namespace lockcheck
