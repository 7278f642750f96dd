#include "nemesis/kill_holder.hpp"

#include <algorithm>

#include "nemesis/worker_target.hpp"

namespace lockcheck {

std::optional<std::vector<std::string>> KillHolder::kill_one(const std::function<std::vector<int>()>& candidates,
                                                             const FaultEvent& event,
                                                             std::chrono::steady_clock::time_point give_up,
                                                             const std::stop_token& stop) {
    while (const auto target = wait_for_worker_target(candidates, event.pick, give_up, stop)) {
        const auto struck = std::chrono::steady_clock::now();
        if (!workers_.kill_worker(*target)) continue;
        std::lock_guard lock(mutex_);
        struck_ = struck;
        return std::vector<std::string>{"worker " + std::to_string(*target)};
    }
    return std::nullopt;
}

std::optional<std::chrono::steady_clock::time_point> KillHolder::struck_at() const {
    std::lock_guard lock(mutex_);
    return struck_;
}

std::optional<std::vector<std::string>> KillHolder::start(const FaultEvent& event, const std::stop_token& stop) {
    const auto now = std::chrono::steady_clock::now();
    const auto give_up = now + kWaitForWorkerTarget;
    const auto in_flight = std::chrono::milliseconds(event.target_delay_ms);
    const auto acquirers = [this, in_flight] { return workers_.acquiring_for(in_flight); };
    if (target_.acquiring_first.count() > 0) {
        if (auto killed = kill_one(acquirers, event, std::min(give_up, now + target_.acquiring_first), stop))
            return killed;
        if (stop.stop_requested()) return std::nullopt;
    }
    const auto holders_and_acquirers = [this, &acquirers] {
        auto targets = acquirers();
        const auto holders = workers_.holders();
        targets.insert(targets.end(), holders.begin(), holders.end());
        return targets;
    };
    return kill_one(holders_and_acquirers, event, give_up, stop);
}

}  // namespace lockcheck
