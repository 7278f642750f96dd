// What kill-restart and power-loss share: nodes taken down together at one
// moment and started again restart_delay_ms later. The restart never comes
// sooner, not even when the run stops early (the workers' last cycles still
// see the nodes down, as the scenario says). When the run is interrupted
// (Ctrl-C) it stops waiting and leaves the nodes down: the run is about to
// stop every node anyway.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <stop_token>
#include <string>
#include <vector>

#include "clusters/node.hpp"

namespace lockcheck {

class DelayedRestart {
public:
    /// What strikes or restarts a set of nodes (e.g. cut_power, restore_power).
    using NodesAction = std::function<void(const std::vector<Node*>& nodes)>;

    /// `fault` names the fault in log lines; `interrupt` is the run's
    /// interrupt (Ctrl-C), which ends restart()'s wait.
    DelayedRestart(std::string fault, std::int64_t delay_ms, std::stop_token interrupt)
        : fault_(std::move(fault)), delay_ms_(delay_ms), interrupt_(std::move(interrupt)) {}

    std::int64_t delay_ms() const { return delay_ms_; }

    /// Takes `nodes` down with `strike` and counts the delay from when it
    /// returns (or throws: what it struck must still come back). Rethrows
    /// what `strike` throws.
    void take_down(std::vector<Node*> nodes, const NodesAction& strike);

    /// Waits until the delay since take_down() has passed, then starts the
    /// nodes again with `start_again`, logging a failure. Nothing when no
    /// nodes are down; never throws.
    void restart(const NodesAction& start_again) noexcept;

private:
    std::string fault_;
    std::int64_t delay_ms_;
    std::stop_token interrupt_;
    std::mutex mutex_;
    std::vector<Node*> down_;
    std::chrono::steady_clock::time_point down_at_;
};

/// The names of `nodes`, comma-separated, for log lines.
std::string node_names(const std::vector<Node*>& nodes);

}  // namespace lockcheck
