// The lock workload each worker slot runs, driven by the controller:
//
//   acquire(key, fresh owner, ttl) -> ok?  read resource -> hold -> write read+1
//                                          -> release
//
// Every step is an op in the history: an invoke when the request is sent, a
// completion when the reply arrives. read and write go through the worker as
// checkpoints (a paused worker answers late) and are applied to the protected
// resource at the instant their completion is recorded, with the token the
// acquire returned. A worker that does not answer in time, or answers
// garbage, gets its op completed as info (lock ops: outcome unknown) or fail
// (resource ops: the controller never applied them) and is replaced.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/history_recorder.hpp"
#include "harness/live_state.hpp"
#include "harness/spec.hpp"
#include "harness/worker_pool.hpp"
#include "workloads/protected_resource.hpp"

namespace lockcheck {

struct WorkloadOptions {
    std::vector<std::string> keys;
    std::int64_t ttl_ms = 1000;
    Range hold_ms;
    Range think_ms;
    std::chrono::milliseconds op_timeout{10'000};
    std::uint64_t seed = 0;
};

class LockWorkload {
public:
    LockWorkload(WorkloadOptions options, WorkerPool& pool, HistoryRecorder& recorder, ProtectedResource& resource,
                 LiveState& live);

    /// Runs cycles on `slot` until `stop` is set or the recorder is full. A
    /// cycle in progress runs to its release, so holders leave cleanly.
    void run_slot(int slot, const std::atomic<bool>& stop);

private:
    WorkloadOptions options_;
    WorkerPool& pool_;
    HistoryRecorder& recorder_;
    ProtectedResource& resource_;
    LiveState& live_;
    std::atomic<std::int64_t> next_request_id_{1};
};

}  // namespace lockcheck
