#include "nemesis/delayed_restart.hpp"

#include <spdlog/spdlog.h>

#include <utility>

#include "core/interruptible_sleep.hpp"

namespace lockcheck {

void DelayedRestart::take_down(std::vector<Node*> nodes, const NodesAction& strike) {
    std::lock_guard lock(mutex_);
    down_ = std::move(nodes);
    try {
        strike(down_);
    } catch (...) {
        down_at_ = std::chrono::steady_clock::now();
        throw;
    }
    down_at_ = std::chrono::steady_clock::now();
}

void DelayedRestart::restart(const NodesAction& start_again) noexcept {
    std::lock_guard lock(mutex_);
    if (down_.empty()) return;
    const auto nodes = std::exchange(down_, {});
    try {
        if (!interruptible_sleep_until(interrupt_, down_at_ + std::chrono::milliseconds(delay_ms_))) {
            spdlog::info("{}: interrupted; {} stay down", fault_, node_names(nodes));
            return;
        }
        start_again(nodes);
    } catch (const std::exception& e) {
        spdlog::error("{}: {} did not come back: {}", fault_, node_names(nodes), e.what());
    }
}

std::string node_names(const std::vector<Node*>& nodes) {
    std::string names;
    for (const Node* n : nodes) names += (names.empty() ? "" : ", ") + n->name();
    return names;
}

}  // namespace lockcheck
