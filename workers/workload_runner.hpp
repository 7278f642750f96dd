// Runs the workload the workers' capabilities select
// (workers/workload_registry.hpp) on every worker slot, one thread per slot,
// and keeps count of the slots that stopped and why.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <stop_token>
#include <string>

#include "workers/worker_pool.hpp"
#include "workers/workload.hpp"

namespace lockcheck {

class WorkloadRunner {
public:
    WorkloadRunner(WorkloadOptions options, WorkerPool& pool, HistoryRecorder& recorder, ProtectedResource& resource,
                   LiveState& live);

    /// Runs the workload on `slot` until a stop is requested or the recorder
    /// is full (WorkloadDescriptor::run_slot). A slot whose worker cannot be
    /// (re)started stops; the reason is logged and kept, and the other slots
    /// go on.
    void run_slot(int slot, const std::stop_token& stop);

    /// The workload chosen for this run.
    const WorkloadDescriptor& workload() const { return workload_; }
    /// Slots that have stopped (for any reason), and why the first one failed.
    int slots_stopped() const { return slots_stopped_; }
    int slots_failed() const { return slots_failed_; }
    std::string first_failure() const;

private:
    WorkloadOptions options_;
    WorkerPool& pool_;
    HistoryRecorder& recorder_;
    const WorkloadDescriptor& workload_;
    const WorkloadContext context_;
    std::atomic<std::int64_t> next_request_id_{1};
    std::atomic<int> slots_stopped_{0};
    std::atomic<int> slots_failed_{0};
    mutable std::mutex failure_mutex_;
    std::string first_failure_;
};

}  // namespace lockcheck
