// One kind of fault, and what faults may act on.
#pragma once

#include <chrono>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "nemesis/schedule.hpp"

namespace lockcheck {

/// The worker processes, as the nemesis sees them (implemented by the harness).
class WorkerControl {
public:
    virtual ~WorkerControl() = default;
    /// Worker numbers that hold a lock right now (acquire ok, release not yet invoked).
    virtual std::vector<int> holders() const = 0;
    /// Worker numbers that hold a lock granted (acquire ok recorded) at or
    /// after `since`: fresh grants.
    virtual std::vector<int> granted_since(std::chrono::steady_clock::time_point) const { return {}; }
    /// SIGSTOP / SIGCONT the process running worker `process`; pause returns
    /// false when that worker no longer runs.
    virtual bool pause_worker(int process) = 0;
    virtual void resume_worker(int process) = 0;
    /// Worker numbers whose acquire has been in flight for at least `at_least`
    /// (a two-step acquire may have done its first step).
    virtual std::vector<int> acquiring_for(std::chrono::milliseconds) const { return {}; }
    /// Worker numbers whose renew has been sent and not yet answered.
    virtual std::vector<int> renewing() const { return {}; }
    /// How many renews the run has sent so far (0: its workers may not renew at all).
    virtual std::int64_t renews_sent() const { return 0; }
    /// SIGKILLs the process running worker `process`; false when it no longer runs.
    virtual bool kill_worker(int) { return false; }
    /// Worker numbers of every worker process running now, holders, waiters
    /// and thinkers alike (one per slot).
    virtual std::vector<int> live_workers() const { return {}; }
};

/// What restarting one node at the end of a fault did (nemesis/delayed_restart.hpp).
struct NodeRestart {
    std::string node;
    /// How long it took from its start to its answering the probe; nullopt when it did not come back.
    std::optional<std::int64_t> ready_ms;
    /// When it did not come back: "n2 did not restart after corrupt-file: ..." with the server's last log line.
    std::string failure;
};

class Fault {
public:
    virtual ~Fault() = default;
    virtual std::string kind() const = 0;
    /// Whether this fault can run in this run (e.g. partitions need
    /// namespaces); when not, the reason.
    virtual std::optional<std::string> unavailable_reason() const { return std::nullopt; }
    /// How long the fault of `event` lasts before heal(): the event's duration,
    /// unless the fault fixes its own (kill-restart: the restart delay).
    virtual std::int64_t duration_ms(const FaultEvent& event) const { return event.duration_ms; }
    /// Starts the fault of `event`. Returns the targets it hit ("worker 3",
    /// "n1"), or nullopt when there was nothing to hit. May wait for a target
    /// until `stop` is set.
    virtual std::optional<std::vector<std::string>> start(const FaultEvent& event, const std::stop_token& stop) = 0;
    /// Ends the fault started last. Idempotent; must never throw.
    virtual void heal() noexcept = 0;
    /// How long at least every server reply to the struck targets is held
    /// back while this fault lasts (slow-reply), recorded on the start-fault
    /// completion as `reply_delay_ms`: the checkers then know that a grant
    /// whose reply arrived in that window happened at least that long before
    /// its ok (checkers/lease_bounds.hpp). nullopt for faults that hold back
    /// nothing for certain.
    virtual std::optional<std::int64_t> reply_delay_ms() const { return std::nullopt; }
    /// The moment just before the fault started last acted on its target: it
    /// had not acted before it. Later than the start-fault invoke when the
    /// fault waited for its aim (a waiter, a renew in flight), recorded on the
    /// completion as `struck_ns` so that the checkers know what was already
    /// in flight when it struck (checkers/worker_fault_windows.hpp). nullopt
    /// for faults that do not say.
    virtual std::optional<std::chrono::steady_clock::time_point> struck_at() const { return std::nullopt; }
    /// For faults that restart nodes at heal() (kill-restart, power-loss,
    /// corrupt-file; disk-error, the nodes whose server exited under it):
    /// what the last heal's restart of each node did, recorded
    /// on the stop-fault completion (nemesis/nemesis.hpp). Empty for the others.
    virtual std::vector<NodeRestart> restarts() const { return {}; }
};

}  // namespace lockcheck
