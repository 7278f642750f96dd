// The workers of one run and what records them: the worker pool (every
// worker ready for its first op), the run's clock, the history recorder
// (with --stop-on-decided's watch) and the protected resource.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "run/expectation_watch.hpp"
#include "run/run_cluster.hpp"
#include "run/run_context.hpp"
#include "recipes/protected_resource.hpp"
#include "workers/live_state.hpp"
#include "workers/worker_pool.hpp"
#include "workers/history_recorder.hpp"
#include "workers/workload_runner.hpp"

namespace lockcheck {

/// The workers of a run and what records them, made in this order: the
/// pool (every worker ready for its first op), the run's clock, the history
/// recorder (with --stop-on-decided's watch), the protected resource.
struct RunWorkers {
    /// Starts the pool and waits for every worker's answer to init.
    RunWorkers(const RunContext& run, RunCluster& cluster);

    /// From spawning the first worker to the last one's answer to init.
    double ready_seconds() const { return std::chrono::duration<double>(start - starting).count(); }

    /// The client the workers said they are (their hello), said on the terminal and in the log.
    std::string announce_client() const;

    LiveState live;
    std::chrono::steady_clock::time_point starting;
    WorkerPool pool;
    std::chrono::steady_clock::time_point start;
    std::optional<ExpectationWatch> watch;  // --stop-on-decided, for a scenario that expects invalid
    HistoryRecorder recorder;
    ProtectedResource resource;
};

}  // namespace lockcheck
