#include "nemesis/kill_holder.hpp"

#include "nemesis/worker_target.hpp"

namespace lockcheck {

std::optional<std::vector<std::string>> KillHolder::start(const FaultEvent& event, const std::stop_token& stop) {
    const auto give_up = std::chrono::steady_clock::now() + kWaitForWorkerTarget;
    const auto in_flight = std::chrono::milliseconds(event.target_delay_ms);
    const auto holders_and_acquirers = [this, in_flight] {
        auto targets = workers_.acquiring_for(in_flight);
        const auto holders = workers_.holders();
        targets.insert(targets.end(), holders.begin(), holders.end());
        return targets;
    };
    while (const auto target = wait_for_worker_target(holders_and_acquirers, event.pick, give_up, stop)) {
        if (!workers_.kill_worker(*target)) continue;
        return std::vector<std::string>{"worker " + std::to_string(*target)};
    }
    return std::nullopt;
}

}  // namespace lockcheck
