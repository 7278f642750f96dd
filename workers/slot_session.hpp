// One worker slot's view while it runs a workload: its current worker, how to
// send it an op and record the op's invoke and completion in the history.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "workers/history_recorder.hpp"
#include "workers/worker_pool.hpp"

namespace lockcheck {

class SlotSession {
public:
    /// `cutoff`: the run's interrupt (Ctrl-C), after which a reply is awaited
    /// at most LineChannel::kInterruptGrace longer, and the run's end (its
    /// time limit, ...), after which at most its ending_grace longer.
    SlotSession(int slot, WorkerPool& pool, HistoryRecorder& recorder, std::chrono::milliseconds timeout,
                std::atomic<std::int64_t>& ids, const std::vector<std::string>& capabilities, ReplyCutoff cutoff = {});

    /// The process number of the slot's current worker (changes when it is replaced).
    int process() const;
    /// Whether the workers have capability `what` ("renew", "reentrant", "resource", "stock", ...).
    bool supports(std::string_view what) const;

    /// Records `invoke`, sends it, records the completion. `apply` (resource
    /// ops on the controller's register) runs at the completion's instant
    /// when the worker answered ok. A worker that does not answer in time is
    /// replaced; its op completes as info (lock ops, and resource ops the
    /// worker performs itself: the outcome is unknown) or fail (resource ops
    /// on the controller's register: never applied). After an interrupt or the
    /// run's end, a worker that does not answer within the grace is not
    /// replaced (the run is ending): its op completes with error
    /// "interrupted: no reply" or "run ended: no reply within N ms of its end".
    Op perform(Op invoke, const std::function<void(Op&)>& apply = {});

private:
    int slot_;
    WorkerPool& pool_;
    HistoryRecorder& recorder_;
    std::chrono::milliseconds timeout_;
    std::atomic<std::int64_t>& ids_;
    const std::vector<std::string>& capabilities_;
    std::shared_ptr<WorkerProcess> worker_;
    ReplyCutoff cutoff_;
};

}  // namespace lockcheck
