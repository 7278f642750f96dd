// What a run leaves behind once its processes are gone: the checkers' verdict
// on history.jsonl, results.json and the reports, and the summary on the
// terminal.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "run/checked_history.hpp"
#include "run/expectation_watch.hpp"
#include "run/run_directory.hpp"
#include "spec/spec.hpp"

namespace lockcheck {

/// Figures of the run itself, for results.json and the summary.
struct RunFigures {
    std::int64_t ops = 0;
    int faults = 0;
    double seconds = 0;                ///< from the first op (every worker ready) to the end of the workload
    double workers_ready_seconds = 0;  ///< from spawning the first worker to the last one's answer to init
    bool namespaces = false;
    bool interrupted = false;
    int workers_failed = 0;  ///< worker slots that stopped because no worker could be started
    int workers = 0;
    std::string worker_failure;  ///< the first such reason
    /// Why a node's lose-unsynced filesystem failed (its daemon died), or "".
    std::string filesystem_failure;
    std::string client;  ///< what the first worker's hello says it is (docs/protocol.md, "client")
    /// Why the run stopped before its time limit with --stop-on-decided; none otherwise.
    std::optional<EarlyDecision> stopped_early;
};

/// Checks the run's history (check_history) with the run's figures and
/// whether the scenario's expectation was met in results.json, prints the
/// summary, the figures and the run directory, and returns what was checked.
/// A history the run wrote that does not read back or check is a
/// HarnessError: it is lockcheck's own record.
/// `expectation_not_applicable`: why the scenario's expectation (already
/// removed from `spec`) does not apply, said instead of met / NOT met.
CheckedHistory conclude_run(const Spec& spec, const RunDirectory& dir, const RunFigures& figures,
                            const std::optional<std::string>& expectation_not_applicable = std::nullopt);

}  // namespace lockcheck
