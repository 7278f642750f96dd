// `lockcheck run`: one run from spec to verdict (docs/design.md, "The flow").
//
// Creates the run directory, the test network and the topology, starts the
// workers and the nemesis, drives the workload until the time limit (or an
// interrupt, or max_ops), heals and stops everything, removes the network,
// then runs the checkers on history.jsonl and writes results.json.
#pragma once

#include <filesystem>
#include <stop_token>

#include "harness/spec.hpp"

namespace lockcheck {

struct RunOptions {
    std::filesystem::path store = "store";
    std::filesystem::path self_exe;                 ///< this binary, to start workers with
    std::stop_token interrupted;                    ///< stopped by the interrupt watcher (Ctrl-C)
};

/// Runs `spec` (validated first) and returns the process exit code; prints
/// the verdict, counts and run directory. A harness failure is reported in
/// one line and returns exit_code::kHarnessError after cleaning up; a SpecError
/// propagates to the caller.
int run_spec(Spec spec, const RunOptions& options);

}  // namespace lockcheck
