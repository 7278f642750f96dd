#include "commands/suite/suite_report.hpp"

#include <fmt/format.h>

namespace lockcheck {

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

namespace {

std::string expected_words(const Spec& spec) {
    if (!spec.expect) return "valid";
    std::string words = spec.expect->valid.value_or("any");
    for (const auto& kind : spec.expect->has) words += " +" + kind;
    for (const auto& kind : spec.expect->lacks) words += " -" + kind;
    return words;
}

std::string percent(double fraction) { return fmt::format("{:.0f}%", 100 * fraction); }

/// "met 9/10 (90%, 95% interval 60%–98%)".
std::string rate_words(const DetectionRate& rate) {
    return fmt::format("met {}/{} ({}, 95% interval {}–{})", rate.met, rate.runs,
                       percent(static_cast<double>(rate.met) / rate.runs), percent(rate.interval.low),
                       percent(rate.interval.high));
}

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

}  // namespace

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

}  // namespace lockcheck
