// One run of a suite in a `lockcheck run` process of its own, for
// `suite --jobs N` (N > 1): runs side by side cannot share one process,
// whose log (spdlog's default logger, the run's lockcheck.log) and progress
// line are the process's. The child writes its run directory as any run
// does; its outcome is read back from it (results.json).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

#include "run/run.hpp"

namespace lockcheck {

struct ChildRunRequest {
    std::filesystem::path spec_file;    ///< the scenario's spec file
    std::optional<std::uint64_t> seed;  ///< --seed; none: the child draws one
    std::filesystem::path console_log;  ///< the child's stdout and stderr
};

/// The argv of the child: `SELF run SPEC --store STORE [--seed N]
/// --stop-on-decided|--no-stop-on-decided`, from `options` (self_exe, store,
/// stop_on_decided).
std::vector<std::string> child_run_argv(const ChildRunRequest& request, const RunOptions& options);

/// What a run directory says of its run: verdict, expectation and whether it
/// was interrupted from its results.json; `exit_code` as the child exited.
/// An empty `run_dir` (the child made none) or a missing results.json gives
/// no verdict.
RunOutcome outcome_from_run_directory(const std::filesystem::path& run_dir, int exit_code, double wall_seconds);

/// When the run's history first became invalid (checkers/first_violation.hpp),
/// in seconds; none for a run that is not invalid or has no readable history
/// (a warning on stderr says why).
std::optional<double> first_violation_seconds(const RunOutcome& run);

/// Runs the request in a child process and waits for it; when
/// `options.interrupted` is requested the child gets SIGINT (it stops as
/// `lockcheck run` does on Ctrl-C). The run directory is the one the child's
/// store's `latest` points at afterwards (a store is used by one child at a
/// time). Throws SpawnError when the child cannot be started.
RunOutcome run_in_child(const ChildRunRequest& request, const RunOptions& options);

}  // namespace lockcheck
