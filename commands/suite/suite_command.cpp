#include "commands/suite/suite_command.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <set>

#include "run/child_run.hpp"
#include "core/regular_file.hpp"
#include "commands/suite/detection_rate.hpp"
#include "run/exit_codes.hpp"
#include "run/run_directory.hpp"
#include "spec/scenario_catalog.hpp"
#include "commands/suite/side_by_side.hpp"
#include "reports/html_report.hpp"
#include "reports/junit_xml.hpp"
#include "reports/results_json.hpp"

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
std::string findings(const nlohmann::json& results) {
    std::string text;
    if (!results.is_object() || !results.contains("checkers")) return text;
    for (const auto& [name, checker] : results["checkers"].items()) {
        if (!checker.value("counts_toward_verdict", true)) continue;
        const auto violations = checker.value("violations", nlohmann::json::array());
        for (std::size_t i = 0; i < violations.size() && i < 3; ++i)
            text += fmt::format("{} {}: {}\n", name, violations[i].value("kind", ""),
                                violations[i].value("description", ""));
    }
    return text;
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
        const nlohmann::json run_json =
            run.results.is_object() && run.results.contains("run") ? run.results["run"] : nlohmann::json::object();
        runs.judged.push_back({matched, first});
        runs.rows.push_back({{"verdict", verdict},
                             {"matched", matched},
                             {"mismatches", mismatches},
                             {"exit_code", run.exit_code},
                             {"seconds", run.wall_seconds},
                             {"run_dir", run.run_dir.string()},
                             {"seed", run_json.value("seed", nlohmann::json())},
                             {"stopped_early", run_json.value("stopped_early", nlohmann::json())},
                             {"first_violation_seconds", first ? nlohmann::json(*first) : nlohmann::json()}});
        if (!matched) {
            runs.why = why;
            runs.failed_run_dirs += fmt::format("{}: {}\n", run.run_dir.string(), why);
        }
        runs.evidence = findings(run.results);
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
    const int repeat = settings.repeat;
    const Selection selection = slice(select_scenarios(selector), settings.shard);
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
    const auto suite_start = std::chrono::steady_clock::now();
    const RunDirectory suite_dir = create_run_directory(options.store / "suites", "");
    std::printf("lockcheck suite (%s): %zu scenarios%s%s | suite directory %s\n", selection.description.c_str(),
                specs.size(), repeat > 1 ? fmt::format(", {} runs each", repeat).c_str() : "",
                settings.jobs > 1 ? fmt::format(", {} at a time", settings.jobs).c_str() : "", suite_dir.path.c_str());

    // Every scenario runs first (side by side with --jobs); the table, suite.json
    // and junit.xml then list them in the suite's order, whichever ended first.
    const SuitePlan plan{selection, specs, options, suite_dir.path, repeat, settings.jobs};
    std::vector<ScenarioRuns> all_runs(specs.size());
    run_side_by_side(
        alone, settings.jobs, [&](std::size_t i) { all_runs[i] = run_scenario(plan, i); }, options.interrupted);

    JUnitSuite junit{"lockcheck-suite", 0, {}};
    nlohmann::json rows = nlohmann::json::array();
    int failed = 0;
    std::vector<std::string> table;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        const Spec& spec = specs[i];
        const ScenarioRuns& runs = all_runs[i];
        if (runs.judged.empty()) {  // interrupted before its first run: a skipped case, never a pass
            junit.cases.push_back({spec.name, "lockcheck.suite", 0, std::nullopt, "", "", "not run (interrupted)"});
            continue;
        }
        const DetectionRate rate = detection_rate(runs.judged);
        const bool every_run_met = rate.met == rate.runs;
        failed += every_run_met ? 0 : 1;
        const std::string expected = spec.expect ? spec.expect->valid.value_or("any") : "valid";
        const std::string first_words =
            rate.median_first_violation ? fmt::format("{:.2f}s", *rate.median_first_violation) : "-";
        if (repeat == 1)
            table.push_back(fmt::format("{:<36} {:<10} {:<9} {:<6} {:>6.1f}s  {}", spec.name, expected,
                                        runs.last_verdict, every_run_met ? "ok" : "FAIL", runs.seconds,
                                        every_run_met ? runs.last_run_dir.string() : runs.why));
        else
            table.push_back(fmt::format("{:<36} {:<10} {:>3}/{:<3} {:>5} {:>5}–{:<5} {:>9} {:>7.1f}s", spec.name,
                                        expected, rate.met, rate.runs,
                                        percent(static_cast<double>(rate.met) / rate.runs), percent(rate.interval.low),
                                        percent(rate.interval.high), first_words, runs.seconds));
        nlohmann::json row = {
            {"name", spec.name},
            {"file", selection.files[i].string()},
            {"expected", expected_words(spec)},
            {"matched", every_run_met},
            {"runs", rate.runs},
            {"met", rate.met},
            {"rate", static_cast<double>(rate.met) / rate.runs},
            {"interval95", {rate.interval.low, rate.interval.high}},
            {"violated", rate.violated},
            {"median_first_violation_seconds",
             rate.median_first_violation ? nlohmann::json(*rate.median_first_violation) : nlohmann::json()},
            {"seconds", runs.seconds},
            {"each", runs.rows}};
        if (repeat == 1) row.update(runs.rows[0]);  // one run: its fields are the scenario's
        rows.push_back(std::move(row));
        JUnitCase c{spec.name, "lockcheck.suite", runs.seconds, std::nullopt, "", ""};
        const std::string rate_line = fmt::format("{}; median time to the first violation: {}", rate_words(rate),
                                                  rate.median_first_violation ? first_words : "none");
        if (!every_run_met) {
            c.failure = repeat == 1 ? fmt::format("expected {}, got {}{}", expected_words(spec), runs.last_verdict,
                                                  runs.why.empty() ? "" : ": " + runs.why)
                                    : fmt::format("expected {}, {}", expected_words(spec), rate_words(rate));
            c.failure_type = "expectation";
        }
        c.details = repeat == 1 ? fmt::format("run directory: {}\n{}", runs.last_run_dir.string(), runs.evidence)
                                : fmt::format("{}\n{}last run directory: {}\n{}", rate_line, runs.failed_run_dirs,
                                              runs.last_run_dir.string(), runs.evidence);
        junit.cases.push_back(std::move(c));
        junit.seconds += runs.seconds;
    }
    const bool interrupted = options.interrupted.stop_requested();
    const int skipped = static_cast<int>(std::count_if(junit.cases.begin(), junit.cases.end(),
                                                       [](const JUnitCase& c) { return c.skipped.has_value(); }));
    const std::size_t ran = junit.cases.size() - static_cast<std::size_t>(skipped);

    if (repeat == 1)
        std::printf("\n%-36s %-10s %-9s %-6s %7s  %s\n", "scenario", "expected", "verdict", "result", "time",
                    "run directory / why");
    else
        std::printf("\n%-36s %-10s %7s %5s %-11s %9s %8s\n", "scenario", "expected", "met", "rate", " 95% interval",
                    "1st viol.", "time");
    for (const auto& line : table) std::printf("%s\n", line.c_str());
    // With --jobs the runs overlap: the suite's wall time is less than the sum of its runs' times.
    const double wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - suite_start).count();
    std::printf("%zu scenarios: %zu met their expectation%s, %d did not%s, in %.0f s | %s\n", ran,
                ran - static_cast<std::size_t>(failed), repeat > 1 ? " in every run" : "", failed,
                interrupted ? fmt::format(", {} not run (interrupted)", skipped).c_str() : "", wall_seconds,
                suite_dir.path.c_str());

    write_json_file(suite_dir.path / "suite.json",
                    {{"selector", selector},
                     {"selection", selection.description},
                     {"repeat", repeat},
                     {"jobs", settings.jobs},
                     {"shard", fmt::format("{}/{}", settings.shard.index, settings.shard.count)},
                     {"scenarios", rows},
                     {"passed", static_cast<int>(ran) - failed},
                     {"failed", failed},
                     {"not_run", skipped},
                     {"interrupted", interrupted},
                     {"seconds", junit.seconds},
                     {"wall_seconds", wall_seconds}});
    write_text_file(suite_dir.path / "junit.xml", junit_xml({junit}));
    return failed > 0 || interrupted ? exit_code::kInvalid : exit_code::kValid;
}

}  // namespace lockcheck
