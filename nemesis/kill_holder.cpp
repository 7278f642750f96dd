#include "nemesis/kill_holder.hpp"

#include <algorithm>
#include <thread>

namespace lockcheck {
namespace {

constexpr auto kWaitForTarget = std::chrono::seconds(5);
constexpr auto kPoll = std::chrono::milliseconds(1);

}  // namespace

std::optional<std::vector<std::string>> KillHolder::start(const FaultEvent& event, const std::stop_token& stop) {
    const auto give_up = std::chrono::steady_clock::now() + kWaitForTarget;
    const auto in_flight = std::chrono::milliseconds(event.target_delay_ms);
    while (!stop.stop_requested() && std::chrono::steady_clock::now() < give_up) {
        auto targets = workers_.acquiring_for(in_flight);
        const auto holders = workers_.holders();
        targets.insert(targets.end(), holders.begin(), holders.end());
        std::sort(targets.begin(), targets.end());
        targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
        if (targets.empty()) {
            std::this_thread::sleep_for(kPoll);
            continue;
        }
        const int target = targets[event.pick % targets.size()];
        if (!workers_.kill_worker(target)) continue;
        return std::vector<std::string>{"worker " + std::to_string(target)};
    }
    return std::nullopt;
}

}  // namespace lockcheck
