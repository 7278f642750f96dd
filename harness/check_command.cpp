#include "harness/check_command.hpp"

#include <cstdio>

#include "checkers/run_checkers.hpp"
#include "core/history_io.hpp"
#include "harness/exit_codes.hpp"
#include "harness/expectation.hpp"
#include "harness/run_directory.hpp"
#include "harness/run_reports.hpp"
#include "reports/results_json.hpp"
#include "reports/terminal_summary.hpp"

namespace lockcheck {
int check_command(const std::filesystem::path& path) {
    const bool run_dir = std::filesystem::is_directory(path);
    const auto history_path = history_file_of(path);
    History history;
    HistoryReadReport read_report;
    try {
        history = read_history(history_path, &read_report);
    } catch (const HistoryError& e) {
        std::fprintf(stderr, "lockcheck: error: %s\n", e.what());
        return exit_code::kBadInput;
    }
    if (read_report.dropped_torn_tail)
        std::fprintf(stderr, "note: %s ends in a partly written record (the controller died mid-write); it was ignored\n",
                     history_path.c_str());

    CheckReport report;
    try {
        report = run_checkers(history);
    } catch (const HistoryError& e) {
        std::fprintf(stderr, "lockcheck: error: %s: %s\n", history_path.c_str(), e.what());
        return exit_code::kBadInput;
    }
    if (run_dir) {
        auto results = results_to_json(report);
        const auto previous = read_json_or_null(path / "results.json");
        if (previous.is_object() && previous.contains("run")) results["run"] = previous["run"];
        const auto spec = read_json_or_null(path / "spec.json");
        if (spec.is_object() && spec.contains("expect")) {
            try {
                const auto expect = spec_from_json(spec, (path / "spec.json").string()).expect;
                if (expect) results["expectation"] = outcome_to_json(evaluate(*expect, report));
            } catch (const SpecError&) {
                // an old or edited spec: check without the expectation
            }
        }
        write_json_file(path / "results.json", results);
        write_run_reports(path, history, report, results, spec);
    }
    std::printf("%s", terminal_summary(report).c_str());
    std::printf("  %zu ops checked from %s\n", history.size(), history_path.c_str());
    return exit_code::for_verdict(report.valid);
}

}  // namespace lockcheck
