#include "commands/shrink/shrink_trial.hpp"

#include <algorithm>

#include "core/atomic_file.hpp"
#include "run/child_run.hpp"
#include "reports/results_json.hpp"

namespace lockcheck {

bool reproduces(const RunOutcome& run, const std::string& kind) {
    if (run.verdict != Validity::Invalid) return false;
    const auto results = written_results(run.results);
    return results && results->violation_kinds().count(kind) > 0;
}

bool kept(const Trial& trial, int runs) { return trial.reproduced >= std::max(1, runs - 1); }

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
        ++trial.runs;
        if (!reproduces(run, plan.kind)) continue;
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
            {"first_violation_seconds", trial.first_violation_seconds},
            {"run_dirs", dirs}};
}

}  // namespace lockcheck
