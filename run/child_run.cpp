#include "run/child_run.hpp"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

#include "checkers/first_violation.hpp"
#include "host/child_process.hpp"
#include "core/history_io.hpp"
#include "reports/results_json.hpp"

namespace lockcheck {
namespace {

/// Where the store's `latest` points, canonical; empty when it points nowhere.
std::filesystem::path latest_run(const std::filesystem::path& store) {
    std::error_code ec;
    const auto target = std::filesystem::canonical(store / "latest", ec);
    return ec ? std::filesystem::path() : target;
}

}  // namespace

std::vector<std::string> child_run_argv(const ChildRunRequest& request, const RunOptions& options) {
    std::vector<std::string> argv{options.self_exe.string(), "run", request.spec_file.string(), "--store",
                                  options.store.string()};
    if (request.seed) {
        argv.emplace_back("--seed");
        argv.push_back(std::to_string(*request.seed));
    }
    argv.emplace_back(options.stop_on_decided ? "--stop-on-decided" : "--no-stop-on-decided");
    return argv;
}

RunOutcome outcome_from_run_directory(const std::filesystem::path& run_dir, int exit_code, double wall_seconds) {
    RunOutcome outcome;
    outcome.exit_code = exit_code;
    outcome.wall_seconds = wall_seconds;
    outcome.run_dir = run_dir;
    if (run_dir.empty()) return outcome;
    outcome.results = read_json_or_null(run_dir / "results.json");
    std::optional<RecordedResults> recorded;
    try {
        recorded = written_results(outcome.results);
    } catch (const ResultsError& e) {  // no verdict: the run counts as an error, and this says why
        std::fprintf(stderr, "warning: %s: %s\n", run_dir.c_str(), e.what());
    }
    if (!recorded) return outcome;
    outcome.verdict = recorded->report.valid;
    outcome.interrupted = recorded->run && recorded->run->interrupted;
    if (recorded->expectation && recorded->expectation->applies)
        outcome.expectation = ExpectationOutcome{recorded->expectation->matched, recorded->expectation->mismatches};
    return outcome;
}

std::optional<double> first_violation_seconds(const RunOutcome& run) {
    if (run.verdict != Validity::Invalid || run.run_dir.empty()) return std::nullopt;
    try {
        if (const auto first = first_violation(read_history(run.run_dir / "history.jsonl"))) return first->seconds;
    } catch (const HistoryError& e) {
        std::fprintf(stderr, "warning: no time to the first violation for %s: %s\n", run.run_dir.c_str(), e.what());
    }
    return std::nullopt;
}

RunOutcome run_in_child(const ChildRunRequest& request, const RunOptions& options) {
    const auto before = latest_run(options.store);
    const auto start = std::chrono::steady_clock::now();
    ChildSpec spec;
    spec.argv = child_run_argv(request, options);
    spec.output_log = request.console_log;
    ChildProcess child(spec);
    bool interrupted = false;
    while (!child.wait_for_exit(std::chrono::milliseconds(200))) {
        if (!interrupted && options.interrupted.stop_requested()) {
            child.send_signal(SIGINT);  // the run stops gracefully, checks what it recorded
            interrupted = true;
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const auto after = latest_run(options.store);
    return outcome_from_run_directory(after == before ? std::filesystem::path() : after,
                                      child.exit_status().value_or(exit_code::kHarnessError), seconds);
}

}  // namespace lockcheck
