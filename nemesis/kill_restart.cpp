#include "nemesis/kill_restart.hpp"

#include <spdlog/spdlog.h>

#include "core/interruptible_sleep.hpp"

namespace lockcheck {

std::optional<std::vector<std::string>> KillRestart::start(const FaultEvent& event, const std::stop_token& stop) {
    const auto candidates = locator_.nodes_of_current_lock(std::chrono::seconds(5), stop);
    if (candidates.empty()) return std::nullopt;
    std::lock_guard lock(mutex_);
    killed_ = candidates[event.pick % candidates.size()];
    killed_->kill();
    killed_at_ = std::chrono::steady_clock::now();
    return std::vector<std::string>{killed_->name()};
}

void KillRestart::heal() noexcept {
    std::lock_guard lock(mutex_);
    if (!killed_) return;
    // Healed early when the run stops: still keep the node down for the whole
    // restart delay, or the workers' last cycles would meet a node restarted
    // (empty) sooner than the scenario says.
    if (!interruptible_sleep_until(interrupt_, killed_at_ + std::chrono::milliseconds(restart_delay_ms_))) {
        spdlog::info("kill-restart: interrupted; {} stays down", killed_->name());
        killed_ = nullptr;
        return;
    }
    try {
        killed_->start();
    } catch (const std::exception& e) {
        spdlog::error("kill-restart: {} did not come back: {}", killed_->name(), e.what());
    }
    killed_ = nullptr;
}

}  // namespace lockcheck
