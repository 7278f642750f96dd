#include "nemesis/pause_holder.hpp"

#include <algorithm>
#include <chrono>

#include "core/interruptible_sleep.hpp"
#include "nemesis/worker_target.hpp"

namespace lockcheck {

std::optional<std::vector<std::string>> PauseHolder::start(const FaultEvent& event, const std::stop_token& stop) {
    const auto give_up = std::chrono::steady_clock::now() + kWaitForWorkerTarget;
    while (const auto target =
               wait_for_worker_target([this] { return workers_.holders(); }, event.pick, give_up, stop)) {
        if (!interruptible_sleep_for(stop, std::chrono::milliseconds(event.target_delay_ms))) break;
        const auto now_holding = workers_.holders();
        if (std::find(now_holding.begin(), now_holding.end(), *target) == now_holding.end()) continue;
        std::lock_guard lock(mutex_);
        if (!workers_.pause_worker(*target)) continue;
        paused_ = *target;
        return std::vector<std::string>{"worker " + std::to_string(*target)};
    }
    return std::nullopt;
}

void PauseHolder::heal() noexcept {
    std::lock_guard lock(mutex_);
    if (paused_) workers_.resume_worker(*paused_);
    paused_.reset();
}

}  // namespace lockcheck
