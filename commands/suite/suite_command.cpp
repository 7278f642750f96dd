#include "commands/suite/suite_command.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <set>

#include "core/atomic_file.hpp"
#include "reports/results_json.hpp"
#include "run/child_run.hpp"
#include "core/regular_file.hpp"
#include "commands/suite/detection_rate.hpp"
#include "run/exit_codes.hpp"
#include "run/run_directory.hpp"
#include "spec/scenario_catalog.hpp"
#include "commands/suite/side_by_side.hpp"
#include "reports/junit_xml.hpp"

namespace lockcheck {
namespace {

struct Selection {
    std::string description;
    std::vector<std::filesystem::path> files;
};

Selection select_scenarios(const std::string& selector) {
    std::error_code ec;
    if (!selector.empty() && std::filesystem::is_regular_file(selector, ec)) return {selector, {selector}};
    if (const auto type = std::filesystem::status(selector, ec).type();  // a link loop, a FIFO: no label either
        !selector.empty() && type != std::filesystem::file_type::not_found &&
        type != std::filesystem::file_type::directory)
        throw SpecError(fmt::format("suite: '{}' {}", selector, not_a_regular_file(selector).value_or("")));
    const bool is_dir = !selector.empty() && std::filesystem::is_directory(selector, ec);
    const auto dir = is_dir ? std::filesystem::path(selector) : default_scenarios_dir();
    Selection selection{is_dir ? dir.string() : selector.empty() ? "all of " + dir.string() : "label " + selector, {}};
    std::set<std::string> labels;
    for (const auto& entry : load_scenarios(dir)) {
        if (!entry.spec) throw SpecError(entry.error);
        labels.insert(entry.spec->labels.begin(), entry.spec->labels.end());
        if (selector.empty() || is_dir || has_label(*entry.spec, selector)) selection.files.push_back(entry.path);
    }
    if (selection.files.empty() && is_dir)
        throw SpecError(fmt::format("suite: directory '{}' holds no spec file (*.json)", selector));
    if (selection.files.empty()) {
        std::string known;
        for (const auto& l : labels) known += (known.empty() ? "" : ", ") + l;
        throw SpecError(fmt::format("suite: '{}' is no directory, spec file or label of a scenario in {} (labels: {})",
                                    selector, dir.string(), known.empty() ? "none" : known));
    }
    return selection;
}

std::string expected_words(const Spec& spec) {
    if (!spec.expect) return "valid";
    std::string words = spec.expect->valid.value_or("any");
    for (const auto& kind : spec.expect->has) words += " +" + kind;
    for (const auto& kind : spec.expect->lacks) words += " -" + kind;
    return words;
}

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

std::string percent(double fraction) { return fmt::format("{:.0f}%", 100 * fraction); }

/// "met 9/10 (90%, 95% interval 60%–98%)".
std::string rate_words(const DetectionRate& rate) {
    return fmt::format("met {}/{} ({}, 95% interval {}–{})", rate.met, rate.runs,
                       percent(static_cast<double>(rate.met) / rate.runs), percent(rate.interval.low),
                       percent(rate.interval.high));
}

/// One scenario's runs, as the suite judged them.
struct ScenarioRuns {
    std::vector<RepeatedRun> judged;
    nlohmann::json rows = nlohmann::json::array();  ///< suite.json's entry of each run
    std::string why;                                ///< the mismatches of the last run that did not meet it
    std::string failed_run_dirs;                    ///< one line per run that did not meet it
    std::string evidence;                           ///< findings of the last run, for junit
    std::filesystem::path last_run_dir;
    std::string last_verdict;
    double seconds = 0;
};

/// The scenarios of `shard` among those selected, its number in the description.
Selection slice(Selection selection, SuiteShard shard) {
    if (shard.count == 1) return selection;
    std::vector<std::filesystem::path> files;
    for (const auto i : shard_positions(selection.files.size(), shard)) files.push_back(selection.files[i]);
    return {fmt::format("{}, shard {}/{}", selection.description, shard.index, shard.count), std::move(files)};
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

/// A scenario's runs as the suite judged them.
struct JudgedScenario {
    const Spec& spec;
    const ScenarioRuns& runs;
    DetectionRate rate;
    bool every_run_met = false;
    std::string expected;     ///< the verdict expected: valid, invalid or any
    std::string first_words;  ///< the median time to the first violation, or "-"
};

/// How a scenario shows in the table and in junit.xml.
struct ScenarioLines {
    std::string table_line;
    std::string failure;  ///< the junit failure, when not every run met the expectation
    std::string details;  ///< the junit details
};

ScenarioLines lines_of_one_run(const JudgedScenario& s) {
    const ScenarioRuns& runs = s.runs;
    return {fmt::format("{:<36} {:<10} {:<9} {:<6} {:>6.1f}s  {}", s.spec.name, s.expected, runs.last_verdict,
                        s.every_run_met ? "ok" : "FAIL", runs.seconds,
                        s.every_run_met ? runs.last_run_dir.string() : runs.why),
            fmt::format("expected {}, got {}{}", expected_words(s.spec), runs.last_verdict,
                        runs.why.empty() ? "" : ": " + runs.why),
            fmt::format("run directory: {}\n{}", runs.last_run_dir.string(), runs.evidence)};
}

ScenarioLines lines_of_repeated_runs(const JudgedScenario& s) {
    const ScenarioRuns& runs = s.runs;
    const DetectionRate& rate = s.rate;
    const std::string rate_line = fmt::format("{}; median time to the first violation: {}", rate_words(rate),
                                              rate.median_first_violation ? s.first_words : "none");
    return {fmt::format("{:<36} {:<10} {:>3}/{:<3} {:>5} {:>5}–{:<5} {:>9} {:>7.1f}s", s.spec.name, s.expected,
                        rate.met, rate.runs, percent(static_cast<double>(rate.met) / rate.runs),
                        percent(rate.interval.low), percent(rate.interval.high), s.first_words, runs.seconds),
            fmt::format("expected {}, {}", expected_words(s.spec), rate_words(rate)),
            fmt::format("{}\n{}last run directory: {}\n{}", rate_line, runs.failed_run_dirs, runs.last_run_dir.string(),
                        runs.evidence)};
}

/// What differs between a suite that runs each scenario once and one that
/// repeats them (--repeat N above 1), decided once.
struct RepeatStyle {
    bool one_run = true;    ///< suite.json: the one run's fields are also the scenario's
    std::string runs_each;  ///< the first line: "" or ", N runs each"
    std::string header;     ///< the table's header line
    std::string every_run;  ///< the last line: "" or " in every run"
    ScenarioLines (*lines)(const JudgedScenario&) = nullptr;
};

RepeatStyle repeat_style(int repeat) {
    if (repeat == 1)
        return {true, "",
                fmt::format("{:<36} {:<10} {:<9} {:<6} {:>7}  {}", "scenario", "expected", "verdict", "result", "time",
                            "run directory / why"),
                "", lines_of_one_run};
    return {false, fmt::format(", {} runs each", repeat),
            fmt::format("{:<36} {:<10} {:>7} {:>5} {:<11} {:>9} {:>8}", "scenario", "expected", "met", "rate",
                        " 95% interval", "1st viol.", "time"),
            " in every run", lines_of_repeated_runs};
}

/// The specs of the selection, each validated before anything runs, and
/// which of them run alone.
std::pair<std::vector<Spec>, std::vector<bool>> read_selected_specs(const Selection& selection) {
    std::vector<Spec> specs;
    std::vector<bool> alone;
    for (const auto& file : selection.files) {
        specs.push_back(read_spec(file));
        try {  // every spec is checked before anything runs; a refusal names its file
            validate(specs.back());
        } catch (const SpecError& e) {
            throw SpecError(file.string() + ": " + e.what());
        }
        alone.push_back(has_label(specs.back(), kAloneLabel));
    }
    return {std::move(specs), std::move(alone)};
}

/// suite.json's entry of a scenario.
nlohmann::json scenario_row(const JudgedScenario& s, const std::filesystem::path& file, bool one_run) {
    const DetectionRate& rate = s.rate;
    nlohmann::json row = {
        {"name", s.spec.name},
        {"file", file.string()},
        {"expected", expected_words(s.spec)},
        {"matched", s.every_run_met},
        {"runs", rate.runs},
        {"met", rate.met},
        {"rate", static_cast<double>(rate.met) / rate.runs},
        {"interval95", {rate.interval.low, rate.interval.high}},
        {"violated", rate.violated},
        {"median_first_violation_seconds",
         rate.median_first_violation ? nlohmann::json(*rate.median_first_violation) : nlohmann::json()},
        {"seconds", s.runs.seconds},
        {"each", s.runs.rows}};
    if (one_run) row.update(s.runs.rows[0]);
    return row;
}

/// What the suite reports once every scenario ran.
struct SuiteReport {
    JUnitSuite junit{"lockcheck-suite", 0, {}};
    nlohmann::json rows = nlohmann::json::array();  ///< suite.json's "scenarios"
    std::vector<std::string> table;
    int failed = 0;
};

SuiteReport report_scenarios(const std::vector<Spec>& specs, const Selection& selection,
                             const std::vector<ScenarioRuns>& all_runs, const RepeatStyle& style) {
    SuiteReport report;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        const ScenarioRuns& runs = all_runs[i];
        if (runs.judged.empty()) {  // interrupted before its first run: a skipped case, never a pass
            report.junit.cases.push_back({specs[i].name, "lockcheck.suite", 0, std::nullopt, "", "", "not run (interrupted)"});
            continue;
        }
        const DetectionRate rate = detection_rate(runs.judged);
        const JudgedScenario judged{
            specs[i],
            runs,
            rate,
            rate.met == rate.runs,
            specs[i].expect ? specs[i].expect->valid.value_or("any") : "valid",
            rate.median_first_violation ? fmt::format("{:.2f}s", *rate.median_first_violation) : "-"};
        report.failed += judged.every_run_met ? 0 : 1;
        ScenarioLines lines = style.lines(judged);
        report.table.push_back(std::move(lines.table_line));
        report.rows.push_back(scenario_row(judged, selection.files[i], style.one_run));
        JUnitCase c{specs[i].name, "lockcheck.suite", runs.seconds, std::nullopt, "", std::move(lines.details)};
        if (!judged.every_run_met) {
            c.failure = std::move(lines.failure);
            c.failure_type = "expectation";
        }
        report.junit.cases.push_back(std::move(c));
        report.junit.seconds += runs.seconds;
    }
    return report;
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
