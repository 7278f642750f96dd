// What a run leaves behind once its processes are gone: the checkers' verdict
// on history.jsonl, results.json, and the summary on the terminal.
#pragma once

#include <cstdint>

#include "harness/run_directory.hpp"
#include "harness/spec.hpp"

namespace lockcheck {

/// Figures of the run itself, for results.json and the summary.
struct RunFigures {
    std::int64_t ops = 0;
    int faults = 0;
    double seconds = 0;
    bool namespaces = false;
    bool interrupted = false;
    int workers_failed = 0;      ///< worker slots that stopped because no worker could be started
    int workers = 0;
    std::string worker_failure;  ///< the first such reason
};

/// Checks the run's history, writes results.json (with the run's figures and
/// whether the scenario's expectation was met), prints the summary, and
/// returns the verdict's exit code.
int conclude_run(const Spec& spec, const RunDirectory& dir, const RunFigures& figures);

}  // namespace lockcheck
