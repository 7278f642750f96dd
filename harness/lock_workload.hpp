// The lock workload each worker slot runs, driven by the controller:
//
//   acquire(key, fresh owner, ttl) -> ok?  read resource -> hold -> write read+1
//                                          -> release
//
// (Workers with capability "stock" run a stock-decrement loop instead:
// harness/stock_cycle.hpp.) With capability "resource" the worker performs
// read and write itself, in the lock's transaction, and reports the values;
// those ops carry resource "worker" and the controller's register is unused.
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
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "harness/history_recorder.hpp"
#include "harness/live_state.hpp"
#include "harness/spec.hpp"
#include "harness/worker_pool.hpp"
#include "workloads/protected_resource.hpp"

namespace lockcheck {

class SlotSession;

struct WorkloadOptions {
    std::vector<std::string> keys;
    std::int64_t ttl_ms = 1000;
    Range hold_ms;
    Range think_ms;
    std::chrono::milliseconds op_timeout{10'000};
    std::uint64_t seed = 0;
    /// What the workers announce they can do: "renew" (the controller sends
    /// renew requests every ttl/3 during a hold, as a lease watchdog would),
    /// "reentrant" (the holder enters the lock again with the same owner and
    /// releases once per entry), "resource" (the worker performs read/write
    /// itself), "stock" (not a lock: a stock-decrement loop). docs/usage.md,
    /// "The workload".
    std::vector<std::string> capabilities = {};
    /// The run's interrupt (Ctrl-C): replies are awaited at most
    /// LineChannel::kInterruptGrace longer, and the stock loop's final reads
    /// stop retrying.
    std::stop_token interrupt = {};
};

class LockWorkload {
public:
    LockWorkload(WorkloadOptions options, WorkerPool& pool, HistoryRecorder& recorder, ProtectedResource& resource,
                 LiveState& live);

    /// Runs cycles on `slot` until a stop is requested or the recorder is
    /// full. A stop ends the hold, think or back-off time in progress at once,
    /// but a cycle in progress still writes and releases, so holders leave
    /// cleanly.
    /// A slot whose worker cannot be (re)started stops; the reason is logged
    /// and kept, and the other slots go on.
    void run_slot(int slot, const std::stop_token& stop);

    /// Slots that have stopped (for any reason), and why the first one failed.
    int slots_stopped() const { return slots_stopped_; }
    int slots_failed() const { return slots_failed_; }
    std::string first_failure() const;

private:
    WorkloadOptions options_;
    WorkerPool& pool_;
    HistoryRecorder& recorder_;
    ProtectedResource& resource_;
    LiveState& live_;
    std::atomic<std::int64_t> next_request_id_{1};
    std::atomic<int> slots_stopped_{0};
    std::atomic<int> slots_failed_{0};
    mutable std::mutex failure_mutex_;
    std::string first_failure_;

    void run_cycles(int slot, const std::stop_token& stop);
    /// The holder's read and write: through the worker as checkpoints applied
    /// to the controller's register, or - capability "resource" - performed
    /// by the worker itself and recorded with resource "worker".
    Op read_resource(SlotSession& session, const std::string& key, std::optional<std::int64_t> token);
    void write_resource(SlotSession& session, const std::string& key, std::optional<std::int64_t> token,
                        std::int64_t value);
};

}  // namespace lockcheck
