// `lockcheck run`: one run from spec to verdict (docs/design.md, "The flow").
//
// Creates the run directory, the test network and the topology, starts the
// workers and the nemesis, drives the workload until the time limit (or an
// interrupt, or max_ops), heals and stops everything, removes the network,
// then checks history.jsonl and writes results.json and the reports
// (run_outputs.hpp).
#pragma once

#include <filesystem>
#include <optional>
#include <stop_token>
#include <string>

#include <nlohmann/json.hpp>

#include "checkers/checker_result.hpp"
#include "run/exit_codes.hpp"
#include "spec/expectation.hpp"
#include "spec/spec.hpp"

namespace lockcheck {

struct RunOptions {
    std::filesystem::path store = "store";
    std::filesystem::path self_exe;  ///< this binary, to start workers with
    std::stop_token interrupted;     ///< stopped by the interrupt watcher (Ctrl-C)
    /// Why the scenario's expectation, removed from the spec, does not apply
    /// (run_flags.hpp); recorded in results.json and said on the terminal.
    std::optional<std::string> expectation_not_applicable;
    /// --stop-on-decided: a scenario that expects an invalid verdict stops
    /// (gracefully, as at its time limit) once the ops recorded so far meet
    /// its expectation (run/expectation_watch.hpp). Off in `run`, on in `suite`.
    bool stop_on_decided = false;
};

/// What a run concluded, for the command that started it (run, suite,
/// compare): nothing needs to be read back from the store.
struct RunOutcome {
    int exit_code = exit_code::kHarnessError;       ///< as `lockcheck run` exits
    std::optional<Validity> verdict;                ///< the checkers' verdict; none when the run failed before it
    std::filesystem::path run_dir;                  ///< the run directory, canonical; empty when the run made none
    nlohmann::json results;                         ///< what results.json holds; null when it was not written
    std::optional<ExpectationOutcome> expectation;  ///< whether the spec's `expect` was met, when it has one
    bool interrupted = false;                       ///< an interrupt ended the workload early
    double wall_seconds = 0;                        ///< the whole call, setup and checking included
};

/// Runs `spec` (validated first); prints the verdict, counts and run
/// directory, and returns the outcome. Every failure is reported in one line
/// (report_failure) after cleaning up and ends up in the outcome's exit code:
/// a bad spec, or a combination this run cannot do (e.g. a fault that needs
/// root), exit_code::kBadInput; a harness failure, or every worker stopping,
/// exit_code::kHarnessError (the latter with the verdict and results of what
/// was recorded).
RunOutcome run_spec(Spec spec, const RunOptions& options);

}  // namespace lockcheck
