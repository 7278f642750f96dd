#include "nemesis/pause_holder.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include "core/interruptible_sleep.hpp"

namespace lockcheck {
namespace {

constexpr auto kWaitForHolder = std::chrono::seconds(5);
constexpr auto kPoll = std::chrono::milliseconds(1);

}  // namespace

std::optional<std::vector<std::string>> PauseHolder::start(const FaultEvent& event, const std::stop_token& stop) {
    const auto give_up = std::chrono::steady_clock::now() + kWaitForHolder;
    while (!stop.stop_requested() && std::chrono::steady_clock::now() < give_up) {
        auto holders = workers_.holders();
        if (holders.empty()) {
            std::this_thread::sleep_for(kPoll);
            continue;
        }
        std::sort(holders.begin(), holders.end());
        const int target = holders[event.pick % holders.size()];
        if (!interruptible_sleep_for(stop, std::chrono::milliseconds(event.target_delay_ms))) break;
        const auto now_holding = workers_.holders();
        if (std::find(now_holding.begin(), now_holding.end(), target) == now_holding.end()) continue;
        std::lock_guard lock(mutex_);
        if (!workers_.pause_worker(target)) continue;
        paused_ = target;
        return std::vector<std::string>{"worker " + std::to_string(target)};
    }
    return std::nullopt;
}

void PauseHolder::heal() noexcept {
    std::lock_guard lock(mutex_);
    if (paused_) workers_.resume_worker(*paused_);
    paused_.reset();
}

}  // namespace lockcheck
