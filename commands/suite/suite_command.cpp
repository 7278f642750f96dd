#include "commands/suite/suite_command.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "core/atomic_file.hpp"
#include "reports/results_json.hpp"
#include "run/child_run.hpp"
#include "commands/suite/detection_rate.hpp"
#include "run/exit_codes.hpp"
#include "run/run_directory.hpp"
#include "commands/suite/side_by_side.hpp"
#include "commands/suite/suite_report.hpp"
#include "commands/suite/suite_selection.hpp"
#include "reports/junit_xml.hpp"

namespace lockcheck {
namespace {

std::string verdict_of(const RunOutcome& run) {
    if (run.exit_code == exit_code::kBadInput) return "bad-spec";
    if (run.exit_code == exit_code::kHarnessError || !run.verdict) return "error";
    return std::string(to_string(*run.verdict));
}

/// Whether the run met its expectation, and the sentences saying why not.
std::pair<bool, std::vector<std::string>> judge(const Spec& spec, const RunOutcome& run, const std::string& verdict) {
    if (verdict == "error" || verdict == "bad-spec")
        return {false, {fmt::format("the run failed (exit {}); see its lockcheck.log", run.exit_code)}};
    if (run.interrupted) return {false, {"interrupted"}};
    if (!spec.expect)
        return {verdict == "valid", verdict == "valid"
                                        ? std::vector<std::string>{}
                                        : std::vector<std::string>{"expected valid (no expect given), got " + verdict}};
    if (!run.expectation) return {false, {}};
    return {run.expectation->matched, run.expectation->mismatches};
}

/// The first violations of each checker that counts, for a failure's body.
std::string findings(const std::optional<RecordedResults>& results) {
    std::string text;
    if (!results) return text;
    for (const auto& checker : results->report.checkers) {
        if (!checker.counts_toward_verdict) continue;
        for (std::size_t i = 0; i < checker.violations.size() && i < 3; ++i)
            text +=
                fmt::format("{} {}: {}\n", checker.name, checker.violations[i].kind, checker.violations[i].description);
    }
    return text;
}

/// suite.json's "seed" and "stopped_early" of a run, as its results.json's "run" has them (null when not).
std::pair<nlohmann::json, nlohmann::json> seed_and_early_stop(const std::optional<RecordedResults>& results) {
    if (!results || !results->run) return {nullptr, nullptr};
    const RecordedRun& run = *results->run;
    nlohmann::json early = nullptr;
    if (run.stopped_early)
        early = {{"reason", run.stopped_early->reason},
                 {"ops", run.stopped_early->ops},
                 {"seconds", run.stopped_early->seconds}};
    return {run.seed ? nlohmann::json(*run.seed) : nlohmann::json(), early};
}

/// What one suite runs: its scenarios and how.
struct SuitePlan {
    const Selection& selection;
    const std::vector<Spec>& specs;
    const RunOptions& options;
    std::filesystem::path suite_dir;
    int repeat = 1;
    int jobs = 1;  ///< above 1: each run in a `lockcheck run` process of its own (run/child_run.hpp)
};

/// Runs scenario i of the plan `repeat` times, one run after the other, and
/// judges each run.
ScenarioRuns run_scenario(const SuitePlan& plan, std::size_t i) {
    const Spec& spec = plan.specs[i];
    const auto& file = plan.selection.files[i];
    RunOptions run_options = plan.options;
    run_options.store = plan.suite_dir / "runs" / file.stem().string();  // each scenario's runs in a store of its own
    ScenarioRuns runs;
    for (int r = 0; r < plan.repeat && !plan.options.interrupted.stop_requested(); ++r) {
        const std::string which = fmt::format("[{}/{}] {}{}", i + 1, plan.specs.size(), spec.name,
                                              plan.repeat > 1 ? fmt::format(" run {}/{}", r + 1, plan.repeat) : "");
        std::optional<std::uint64_t> seed = spec.seed;
        if (seed) *seed += static_cast<std::uint64_t>(r);  // else drawn per run
        RunOutcome run;
        if (plan.jobs > 1) {
            const auto console = run_options.store / "console.log";
            std::printf("== %s started (%s; its output: %s)\n", which.c_str(), file.c_str(), console.c_str());
            std::fflush(stdout);
            std::filesystem::create_directories(run_options.store);
            run = run_in_child({file, seed, console}, run_options);
        } else {
            std::printf("\n== %s (%s)\n", which.c_str(), file.c_str());
            std::fflush(stdout);
            Spec run_spec_copy = spec;
            run_spec_copy.seed = seed;
            run = run_spec(std::move(run_spec_copy), run_options);
        }
        const std::string verdict = verdict_of(run);
        const auto [matched, mismatches] = judge(spec, run, verdict);
        if (plan.jobs > 1) {
            std::printf("== %s: %s, %s (%.1fs)\n", which.c_str(), verdict.c_str(),
                        matched ? "met its expectation" : "did NOT meet its expectation", run.wall_seconds);
            std::fflush(stdout);
        }
        std::string why;
        for (const auto& m : mismatches) why += (why.empty() ? "" : "; ") + m;
        const auto first = first_violation_seconds(run);
        const auto results = written_results(run.results);
        const auto [seed_json, early_json] = seed_and_early_stop(results);
        runs.judged.push_back({matched, first});
        runs.rows.push_back({{"verdict", verdict},
                             {"matched", matched},
                             {"mismatches", mismatches},
                             {"exit_code", run.exit_code},
                             {"seconds", run.wall_seconds},
                             {"run_dir", run.run_dir.string()},
                             {"seed", seed_json},
                             {"stopped_early", early_json},
                             {"first_violation_seconds", first ? nlohmann::json(*first) : nlohmann::json()}});
        if (!matched) {
            runs.why = why;
            runs.failed_run_dirs += fmt::format("{}: {}\n", run.run_dir.string(), why);
        }
        runs.evidence = findings(results);
        runs.last_run_dir = run.run_dir;
        runs.last_verdict = verdict;
        runs.seconds += run.wall_seconds;
    }
    return runs;
}

}  // namespace

int suite_command(const std::string& selector, const RunOptions& options, const SuiteSettings& settings) {
    if (settings.repeat < 1)
        throw SpecError(fmt::format("suite: --repeat must be at least 1, got {}", settings.repeat));
    if (settings.jobs < 1) throw SpecError(fmt::format("suite: --jobs must be at least 1, got {}", settings.jobs));
    const RepeatStyle style = repeat_style(settings.repeat);
    const Selection selection = slice(select_scenarios(selector), settings.shard);
    const auto [specs, alone] = read_selected_specs(selection);
    const auto suite_start = std::chrono::steady_clock::now();
    const RunDirectory suite_dir = create_run_directory(options.store / "suites", "");
    std::printf("lockcheck suite (%s): %zu scenarios%s%s | suite directory %s\n", selection.description.c_str(),
                specs.size(), style.runs_each.c_str(),
                settings.jobs > 1 ? fmt::format(", {} at a time", settings.jobs).c_str() : "", suite_dir.path.c_str());

    // Every scenario runs first (side by side with --jobs); the table, suite.json
    // and junit.xml then list them in the suite's order, whichever ended first.
    const SuitePlan plan{selection, specs, options, suite_dir.path, settings.repeat, settings.jobs};
    std::vector<ScenarioRuns> all_runs(specs.size());
    run_side_by_side(
        alone, settings.jobs, [&](std::size_t i) { all_runs[i] = run_scenario(plan, i); }, options.interrupted);

    const SuiteReport report = report_scenarios(specs, selection, all_runs, style);
    const auto& junit = report.junit;
    const bool interrupted = options.interrupted.stop_requested();
    const int skipped = static_cast<int>(std::count_if(junit.cases.begin(), junit.cases.end(),
                                                       [](const JUnitCase& c) { return c.skipped.has_value(); }));
    const std::size_t ran = junit.cases.size() - static_cast<std::size_t>(skipped);
    std::printf("\n%s\n", style.header.c_str());
    for (const auto& line : report.table) std::printf("%s\n", line.c_str());
    // With --jobs the runs overlap: the suite's wall time is less than the sum of its runs' times.
    const double wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - suite_start).count();
    std::printf("%zu scenarios: %zu met their expectation%s, %d did not%s, in %.0f s | %s\n", ran,
                ran - static_cast<std::size_t>(report.failed), style.every_run.c_str(), report.failed,
                interrupted ? fmt::format(", {} not run (interrupted)", skipped).c_str() : "", wall_seconds,
                suite_dir.path.c_str());

    write_json_file(suite_dir.path / "suite.json",
                    {{"selector", selector},
                     {"selection", selection.description},
                     {"repeat", settings.repeat},
                     {"jobs", settings.jobs},
                     {"shard", fmt::format("{}/{}", settings.shard.index, settings.shard.count)},
                     {"scenarios", report.rows},
                     {"passed", static_cast<int>(ran) - report.failed},
                     {"failed", report.failed},
                     {"not_run", skipped},
                     {"interrupted", interrupted},
                     {"seconds", junit.seconds},
                     {"wall_seconds", wall_seconds}});
    write_text_file(suite_dir.path / "junit.xml", junit_xml({junit}));
    return report.failed > 0 || interrupted ? exit_code::kInvalid : exit_code::kValid;
}

}  // namespace lockcheck
