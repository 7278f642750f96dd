#include "nemesis/kill_restart.hpp"

#include <spdlog/spdlog.h>

#include "nemesis/lock_location.hpp"

namespace lockcheck {

KillRestart::KillRestart(std::vector<Node*> nodes, std::int64_t restart_delay_ms)
    : nodes_(std::move(nodes)), restart_delay_ms_(restart_delay_ms), locate_([this](const std::atomic<bool>& stop) {
          return nodes_of_current_lock(nodes_, std::chrono::seconds(5), stop);
      }) {}

KillRestart::Locator primary_or_any(Topology& topology) {
    return [&topology](const std::atomic<bool>&) {
        Node* primary = topology.primary();
        return primary ? std::vector<Node*>{primary} : topology.nodes();
    };
}

std::optional<std::vector<std::string>> KillRestart::start(const FaultEvent& event, const std::atomic<bool>& stop) {
    const auto candidates = locate_(stop);
    if (candidates.empty()) return std::nullopt;
    std::lock_guard lock(mutex_);
    killed_ = candidates[event.pick % candidates.size()];
    killed_->kill();
    return std::vector<std::string>{killed_->name()};
}

void KillRestart::heal() noexcept {
    std::lock_guard lock(mutex_);
    if (!killed_) return;
    try {
        killed_->start();
    } catch (const std::exception& e) {
        spdlog::error("kill-restart: {} did not come back: {}", killed_->name(), e.what());
    }
    killed_ = nullptr;
}

}  // namespace lockcheck
