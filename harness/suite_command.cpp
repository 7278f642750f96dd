#include "harness/suite_command.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <set>

#include "harness/exit_codes.hpp"
#include "harness/run_directory.hpp"
#include "harness/scenario_catalog.hpp"
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
    const bool is_dir = !selector.empty() && std::filesystem::is_directory(selector, ec);
    const auto dir = is_dir ? std::filesystem::path(selector) : default_scenarios_dir();
    Selection selection{is_dir ? dir.string() : selector.empty() ? "all of " + dir.string() : "label " + selector, {}};
    std::set<std::string> labels;
    for (const auto& entry : load_scenarios(dir)) {
        if (!entry.spec) throw SpecError(entry.error);
        labels.insert(entry.spec->labels.begin(), entry.spec->labels.end());
        if (selector.empty() || is_dir || has_label(*entry.spec, selector)) selection.files.push_back(entry.path);
    }
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

}  // namespace

int suite_command(const std::string& selector, const RunOptions& options) {
    const Selection selection = select_scenarios(selector);
    std::vector<Spec> specs;
    for (const auto& file : selection.files) {
        specs.push_back(read_spec(file));
        validate(specs.back());  // every spec is checked before anything runs
    }
    const RunDirectory suite_dir = create_run_directory(options.store / "suites", "");
    std::printf("lockcheck suite (%s): %zu scenarios | suite directory %s\n", selection.description.c_str(),
                specs.size(), suite_dir.path.c_str());

    JUnitSuite junit{"lockcheck-suite", 0, {}};
    nlohmann::json rows = nlohmann::json::array();
    int failed = 0;
    std::vector<std::string> table;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        const Spec& spec = specs[i];
        if (options.interrupted.stop_requested()) break;
        std::printf("\n== [%zu/%zu] %s (%s)\n", i + 1, specs.size(), spec.name.c_str(), selection.files[i].c_str());
        std::fflush(stdout);
        const auto stem = selection.files[i].stem().string();
        RunOptions run_options = options;
        run_options.store = suite_dir.path / "runs" / stem;  // each run in a store of its own
        const RunOutcome run = run_spec(spec, run_options);
        const std::string verdict = verdict_of(run);
        const auto [matched, mismatches] = judge(spec, run, verdict);
        failed += matched ? 0 : 1;
        std::string why;
        for (const auto& m : mismatches) why += (why.empty() ? "" : "; ") + m;
        table.push_back(fmt::format("{:<36} {:<10} {:<9} {:<6} {:>6.1f}s  {}", spec.name,
                                    spec.expect ? spec.expect->valid.value_or("any") : "valid", verdict,
                                    matched ? "ok" : "FAIL", run.wall_seconds, matched ? run.run_dir.string() : why));
        rows.push_back({{"name", spec.name},
                        {"file", selection.files[i].string()},
                        {"expected", expected_words(spec)},
                        {"verdict", verdict},
                        {"matched", matched},
                        {"mismatches", mismatches},
                        {"exit_code", run.exit_code},
                        {"seconds", run.wall_seconds},
                        {"run_dir", run.run_dir.string()},
                        {"seed", run.results.is_object() && run.results.contains("run")
                                     ? run.results["run"].value("seed", nlohmann::json())
                                     : nlohmann::json()}});
        JUnitCase c{spec.name, "lockcheck.suite", run.wall_seconds, std::nullopt, "", ""};
        if (!matched) {
            c.failure =
                fmt::format("expected {}, got {}{}", expected_words(spec), verdict, why.empty() ? "" : ": " + why);
            c.failure_type = "expectation";
        }
        c.details = fmt::format("run directory: {}\n{}", run.run_dir.string(), findings(run.results));
        junit.cases.push_back(std::move(c));
        junit.seconds += run.wall_seconds;
    }
    const bool interrupted = options.interrupted.stop_requested();
    const int skipped = static_cast<int>(specs.size() - junit.cases.size());

    std::printf("\n%-36s %-10s %-9s %-6s %7s  %s\n", "scenario", "expected", "verdict", "result", "time",
                "run directory / why");
    for (const auto& line : table) std::printf("%s\n", line.c_str());
    std::printf("%zu scenarios: %zu met their expectation, %d did not%s | %s\n", junit.cases.size(),
                junit.cases.size() - static_cast<std::size_t>(failed), failed,
                interrupted ? fmt::format(", {} not run (interrupted)", skipped).c_str() : "", suite_dir.path.c_str());

    write_json_file(suite_dir.path / "suite.json", {{"selector", selector},
                                                    {"selection", selection.description},
                                                    {"scenarios", rows},
                                                    {"passed", static_cast<int>(junit.cases.size()) - failed},
                                                    {"failed", failed},
                                                    {"not_run", skipped},
                                                    {"interrupted", interrupted},
                                                    {"seconds", junit.seconds}});
    write_text_file(suite_dir.path / "junit.xml", junit_xml({junit}));
    return failed > 0 || interrupted ? exit_code::kInvalid : exit_code::kValid;
}

}  // namespace lockcheck
