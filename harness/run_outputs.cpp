#include "harness/run_outputs.hpp"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <optional>

#include "checkers/run_checkers.hpp"
#include "core/history_io.hpp"
#include "harness/exit_codes.hpp"
#include "harness/expectation.hpp"
#include "harness/run_reports.hpp"
#include "reports/results_json.hpp"
#include "reports/terminal_summary.hpp"

namespace lockcheck {

int conclude_run(const Spec& spec, const RunDirectory& dir, const RunFigures& figures) {
    const History history = read_history(dir.path / "history.jsonl");
    const CheckReport report = run_checkers(history);
    auto results = results_to_json(report);
    results["run"] = {{"name", spec.name},        {"run_id", dir.run_id},           {"seed", *spec.seed},
                      {"ops", figures.ops},       {"faults", figures.faults},       {"seconds", figures.seconds},
                      {"interrupted", figures.interrupted},
                      {"workers_failed", figures.workers_failed},
                      {"network", figures.namespaces ? "netns" : "loopback"}};
    std::optional<ExpectationOutcome> expectation;
    if (spec.expect) {
        expectation = evaluate(*spec.expect, report);
        results["expectation"] = outcome_to_json(*expectation);
    }
    write_json_file(dir.path / "results.json", results);
    write_run_reports(dir.path, history, report, results, spec_to_json(spec));

    std::printf("\n%s", terminal_summary(report).c_str());
    std::printf("  %lld ops in %.1f s, %d faults injected%s\n", static_cast<long long>(figures.ops), figures.seconds,
                figures.faults, figures.interrupted ? " (interrupted)" : "");
    if (expectation) {
        std::string mismatches;
        for (const auto& m : expectation->mismatches) mismatches += (mismatches.empty() ? "" : "; ") + m;
        std::printf("  scenario expectation: %s\n", expectation->matched ? "met" : ("NOT met: " + mismatches).c_str());
    }
    std::printf("  run directory: %s\n", dir.path.c_str());
    spdlog::info("verdict: {}", to_string(report.valid));
    return exit_code::for_verdict(report.valid);
}

}  // namespace lockcheck
