// What kill-restart, power-loss and corrupt-file share: nodes taken down
// together at one moment and started again restart_delay_ms later. The
// restart never comes sooner, not even when the run stops early (the
// workers' last cycles still see the nodes down, as the scenario says). When
// the run is interrupted (Ctrl-C) it stops waiting and leaves the nodes down:
// the run is about to stop every node anyway.
//
// A node that does not come back is a finding of the run, not a harness
// error (a server that refuses its damaged files is what the fault asks
// about): restart() keeps, per node, how long it took to be ready or why it
// did not start, for the stop-fault record (Fault::restarts,
// nemesis/nemesis.hpp), and the run goes on with the node down.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "clusters/node.hpp"
#include "nemesis/fault.hpp"

namespace lockcheck {

class DelayedRestart {
public:
    /// What strikes a set of nodes (e.g. cut_power).
    using NodesAction = std::function<void(const std::vector<Node*>& nodes)>;

    /// `fault` names the fault in log lines and findings; `interrupt` is the
    /// run's interrupt (Ctrl-C), which ends restart()'s wait.
    DelayedRestart(std::string fault, std::int64_t delay_ms, std::stop_token interrupt)
        : fault_(std::move(fault)), delay_ms_(delay_ms), interrupt_(std::move(interrupt)) {}

    std::int64_t delay_ms() const { return delay_ms_; }

    /// Takes `nodes` down with `strike` and counts the delay from when it
    /// returns (or throws: what it struck must still come back). Rethrows
    /// what `strike` throws.
    void take_down(std::vector<Node*> nodes, const NodesAction& strike);

    /// Waits until the delay since take_down() has passed, then starts the
    /// nodes again one after another (Node::start, each until it is ready;
    /// one that does not come back keeps none of the others down), keeping
    /// what each did for restarts() and logging a failure. Nothing when no
    /// nodes are down; never throws.
    void restart() noexcept;

    /// What the last restart() did, one entry per node, in order (empty
    /// before any, or when it was interrupted).
    std::vector<NodeRestart> restarts() const;

private:
    std::string fault_;
    std::int64_t delay_ms_;
    std::stop_token interrupt_;
    mutable std::mutex mutex_;
    std::vector<Node*> down_;
    std::chrono::steady_clock::time_point down_at_;
    std::vector<NodeRestart> restarts_;
};

/// A fault that takes nodes down at start() and brings them back at heal()
/// after restart_delay_ms (kill-restart, power-loss, corrupt-file): its kind,
/// duration, heal and restarts come from its DelayedRestart.
class RestartingFault : public Fault {
public:
    RestartingFault(std::string name, std::int64_t restart_delay_ms, std::stop_token interrupt)
        : kind_(name), restart_(std::move(name), restart_delay_ms, std::move(interrupt)) {}
    std::string kind() const override { return kind_; }
    std::int64_t duration_ms(const FaultEvent&) const override { return restart_.delay_ms(); }
    void heal() noexcept override { restart_.restart(); }
    std::vector<NodeRestart> restarts() const override { return restart_.restarts(); }

protected:
    std::string kind_;
    DelayedRestart restart_;
};

/// Starts `node` (Node::start) and says how long it took to be ready, or
/// "NODE did not restart after FAULT: why" with the server's last log line.
NodeRestart start_node_again(Node& node, const std::string& fault);

/// The names of `nodes`, comma-separated, for log lines.
std::string node_names(const std::vector<Node*>& nodes);

}  // namespace lockcheck
