// Runs a fault schedule on its own thread and records each fault in the
// history as nemesis ops: start-fault and stop-fault, each an invoke followed
// by an info, with value {"fault": kind, "id": event id, "targets": [...]};
// a stop-fault info of a fault that restarts nodes also carries "restart_ms"
// {node: ms until it was ready} and "not_restarted" [why each node that did
// not come back did not] (Fault::restarts).
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <vector>

#include "core/op.hpp"
#include "nemesis/fault.hpp"
#include "nemesis/schedule.hpp"

namespace lockcheck {

class Nemesis {
public:
    /// Records an op; the harness fills in index and time.
    using Recorder = std::function<void(Op)>;

    /// `faults`: keyed by fault_instance_key (an event's kind, or its kind and
    /// options); `workers`: whose grants an event's after_grant_ms trigger
    /// waits for (nemesis/fresh_grant.hpp; null: such an event strikes nothing).
    Nemesis(std::vector<FaultEvent> schedule, std::map<std::string, std::unique_ptr<Fault>> faults, Recorder record,
            std::chrono::steady_clock::time_point run_start, const WorkerControl* workers = nullptr);

    /// Executes the schedule until it ends or a stop is requested (which
    /// also ends every wait at once); heals the fault
    /// in progress before returning. A fault whose start or heal overruns its
    /// planned end delays every later fault by the overrun, so each still
    /// comes after the quiet gap the schedule gave it. An event with
    /// after_grant_ms waits from its time for a fresh grant and starts its
    /// fault that long after it (recorded as a target "N ms after the grant to
    /// worker W"); with none, a start-fault info "no fresh grant". A fault whose start throws is healed and
    /// recorded as a start-fault info with error "fault failed: ...". Call on a thread that outlives the run's
    /// children (see ChildProcess).
    void run(const std::stop_token& stop);
    /// Ends the fault in progress, if any (also called by run on stop).
    void heal() noexcept;
    /// The fault in progress for the progress line, e.g. "pause-holder worker 3", or "".
    std::string current() const;
    int faults_started() const { return started_; }

private:
    std::vector<FaultEvent> schedule_;
    std::map<std::string, std::unique_ptr<Fault>> faults_;
    Recorder record_;
    std::chrono::steady_clock::time_point run_start_;
    const WorkerControl* workers_;
    mutable std::mutex mutex_;  ///< guards the fields below
    std::mutex heal_mutex_;     ///< serialises heal()
    std::string current_;
    Fault* active_ = nullptr;
    FaultEvent active_event_;
    std::vector<std::string> active_targets_;
    std::atomic<int> started_{0};

    /// Records one fault op: its kind and id, the targets it struck, why it
    /// failed, the fault's reply_delay_ms (Fault::reply_delay_ms) and
    /// struck_ns (Fault::struck_at) when set, and what restarting its nodes
    /// did (Fault::restarts): "restart_ms" {node: ms to ready}, "not_restarted"
    /// [one line per node that did not come back].
    void record(OpType type, std::string_view f, const FaultEvent& event, const std::vector<std::string>* targets,
                std::optional<std::string> error = std::nullopt,
                std::optional<std::int64_t> reply_delay_ms = std::nullopt,
                std::optional<std::int64_t> struck_ns = std::nullopt,
                const std::vector<NodeRestart>& restarts = {});
    /// Fault::struck_at on the history's clock (ns since the run's start), when the fault says.
    std::optional<std::int64_t> struck_ns(const Fault& fault) const;
};

}  // namespace lockcheck
