// Fault "pause-client": SIGSTOP one worker, as a stop-the-world GC pause
// strikes any process, then SIGCONT it when the fault ends (at the heal,
// which the nemesis also runs when the run is interrupted).
//
// Its aim (pause_client_target) chooses the moment from what the run is
// doing, so that a pause lands on the danger a cell exists for. The event's
// pick chooses among the workers the aim allows, waiting up to 5 s for one:
//   "any" (the default): every live worker, holders, waiters and thinkers;
//   "waiting": a worker whose acquire has been in flight for at least
//       pause_client_waiting_for_ms (a waiter whose session or lease may
//       expire while it waits, then be granted: etcd-io/etcd#11456's shape);
//   "renewing": a holder whose renew has been sent and not yet answered (the
//       renew then stays in flight across its lease's end); until the run has
//       sent its first renew (workers without "renew" never do), any holder;
//   "lone-holder": the one holder while no other worker holds or waits for a
//       lock (the key would otherwise be free, so when its lease runs out
//       another owner can take it and release it before the holder wakes);
//   "holder": any holder, at once (nemesis/worker_aim.hpp).
// Target: "worker N".
#pragma once

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>

#include "nemesis/fault.hpp"
#include "nemesis/fault_descriptor.hpp"
#include "nemesis/worker_aim.hpp"

namespace lockcheck {

/// Which workers pause-client may strike (option pause_client_target).
using PauseClientTarget = AimedTarget;
/// The workers `target` may strike now, as `workers` reports them.
std::vector<int> pause_client_candidates(const WorkerControl& workers, const PauseClientTarget& target);

class PauseClient : public Fault {
public:
    PauseClient(WorkerControl& workers, PauseClientTarget target) : workers_(workers), target_(target) {}
    std::string kind() const override { return "pause-client"; }
    std::optional<std::vector<std::string>> start(const FaultEvent& event, const std::stop_token& stop) override;
    void heal() noexcept override;
    std::optional<std::chrono::steady_clock::time_point> struck_at() const override;

private:
    WorkerControl& workers_;
    PauseClientTarget target_;
    mutable std::mutex mutex_;
    std::optional<int> paused_;
    std::optional<std::chrono::steady_clock::time_point> struck_;
};

/// The descriptor of this fault (nemesis/pause_client_descriptor.cpp).
FaultDescriptor pause_client_fault();

}  // namespace lockcheck
