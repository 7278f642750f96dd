// A workload: what the controller makes each worker slot do, chosen by the
// capabilities the workers announce (docs/protocol.md). Each workload is one
// descriptor in a file of its own (workers/lock_workload.hpp,
// workers/stock_workload.hpp, workers/unique_ids_workload.hpp), registered
// with one line in workers/workload_registry.cpp;
// workers/workload_runner.hpp runs it on every slot.
#pragma once

#include <chrono>
#include <cstdint>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "workers/history_recorder.hpp"
#include "workers/live_state.hpp"
#include "workers/slot_session.hpp"
#include "spec/spec.hpp"
#include "recipes/protected_resource.hpp"

namespace lockcheck {

struct WorkloadOptions {
    std::vector<std::string> keys;
    std::int64_t ttl_ms = 1000;
    Range hold_ms;
    Range think_ms;
    /// Spec hold_timed_by "client": the worker times each hold on its own
    /// clock (op hold, capability "hold") instead of the controller.
    bool client_times_holds = false;
    std::chrono::milliseconds op_timeout{10'000};
    std::uint64_t seed = 0;
    /// What the workers announce they can do (core/capabilities.hpp): it
    /// selects the workload (e.g. "stock": the stock loop) and shapes it
    /// ("renew": renew requests every ttl/3 during a hold, as a lease
    /// watchdog would; "reentrant": the holder enters the lock again with the
    /// same owner and releases once per entry; "resource": the worker performs
    /// read/write itself). docs/usage.md, "The workload".
    std::vector<std::string> capabilities = {};
    /// The run's interrupt (Ctrl-C): replies are awaited at most
    /// LineChannel::kInterruptGrace longer, and final reads stop retrying.
    std::stop_token interrupt = {};
    /// How much longer than the run's end (its time limit, max_ops, ...) a
    /// reply in flight is awaited, however long op_timeout is: a worker that
    /// keeps its server_timeout_ms answers within it.
    std::chrono::milliseconds stop_grace{2'000};
};

/// What a workload's slots share: the run's options and the parts of the run they act on.
struct WorkloadContext {
    const WorkloadOptions& options;
    HistoryRecorder& recorder;
    ProtectedResource& resource;  ///< the controller's protected register
    LiveState& live;              ///< the live holders and overlaps (progress display)
};

struct WorkloadDescriptor {
    std::string_view name;         ///< e.g. "lock"
    std::string_view description;  ///< one line
    /// The capability whose announcement selects this workload; empty for
    /// the default one, run when no other is selected (the lock cycle).
    std::string_view capability;
    /// Runs the workload's cycles on one slot, through `session`, until a stop
    /// is requested on `stop` (which also ends any wait in progress at once)
    /// or the recorder is full; every loop is bounded. Throws when the slot
    /// cannot go on (e.g. its worker cannot be restarted).
    void (*run_slot)(SlotSession& session, const WorkloadContext& context, int slot, const std::stop_token& stop);
};

}  // namespace lockcheck
