// The pool of worker processes: one slot per concurrent lock client. A slot's
// worker that stops answering is replaced by a new process under a new
// process number (as Jepsen does), so an indeterminate op's owner is never
// reused. Implements WorkerControl for the nemesis. Thread-safe.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "workers/live_state.hpp"
#include "workers/worker_process.hpp"
#include "nemesis/fault.hpp"

namespace lockcheck {

class WorkerPool : public WorkerControl {
public:
    /// Starts the worker that will run as `process` and sends it init
    /// (WorkerProcess's constructor); the pool awaits its hello.
    using Spawner = std::function<std::unique_ptr<WorkerProcess>(int process)>;

    /// Called with the process number of a worker that replace() killed,
    /// before its successor starts (e.g. to close the fault proxy's links of it).
    using Retired = std::function<void(int process)>;

    /// Spawns workers 0..slots-1, all of them first, then awaits every hello
    /// against one deadline, `hello_timeout` after the last spawn: the workers
    /// start up side by side, so the wait is the slowest one's, not the sum.
    /// The spawns run on `spawn_threads` threads, the calling one among them
    /// (each takes the next slot): more than 1 only when a worker does not die
    /// with the thread that spawned it. An exec'd worker does
    /// (PR_SET_PDEATHSIG, host/child_process.hpp): with 1, every spawn is
    /// on the calling thread, which must live as long as the run. Throws
    /// WorkerError naming the first worker (lowest slot) that failed to start
    /// or to answer init; no more are spawned after a failure, and the others
    /// are stopped with it.
    WorkerPool(int slots, Spawner spawn, LiveState& live, std::chrono::milliseconds hello_timeout, Retired retired = {},
               int spawn_threads = 1);

    int slots() const { return static_cast<int>(slots_.size()); }
    std::shared_ptr<WorkerProcess> worker(int slot) const;
    /// Kills the slot's worker and starts a new one with the next unused
    /// process number; throws WorkerError when it does not answer init.
    std::shared_ptr<WorkerProcess> replace(int slot);
    /// Stops every worker (EOF, then signals).
    void stop_all();

    std::vector<int> holders() const override { return live_.holders(); }
    std::vector<int> granted_since(std::chrono::steady_clock::time_point since) const override {
        return live_.granted_since(since);
    }
    bool pause_worker(int process) override;
    void resume_worker(int process) override;
    std::vector<int> acquiring_for(std::chrono::milliseconds at_least) const override {
        return live_.acquiring_for(at_least);
    }
    std::vector<int> renewing() const override { return live_.renewing(); }
    std::int64_t renews_sent() const override { return live_.renews_sent(); }
    /// SIGKILLs the worker; the slot's driver notices ("worker exited") and replaces it.
    bool kill_worker(int process) override;
    std::vector<int> live_workers() const override;

private:
    Spawner spawn_;
    LiveState& live_;
    std::chrono::milliseconds hello_timeout_;
    Retired retired_;
    mutable std::mutex mutex_;
    std::vector<std::shared_ptr<WorkerProcess>> slots_;
    int next_process_ = 0;

    std::shared_ptr<WorkerProcess> by_process(int process) const;
    /// Fills every slot with worker number `slot`, from `threads` threads (the constructor's spawn_threads).
    void spawn_first_workers(int threads);
};

}  // namespace lockcheck
