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

NodeRestart start_node_again(Node& node, const std::string& fault) {
    const auto began = std::chrono::steady_clock::now();
    try {
        node.start();
    } catch (const std::exception& e) {
        std::string why = e.what();
        const std::string prefix = "node " + node.name() + " ";
        if (why.rfind(prefix, 0) == 0) why.erase(0, prefix.size());
        if (why.rfind(": ", 0) == 0) why.erase(0, 2);
        return {node.name(), std::nullopt, node.name() + " did not restart after " + fault + ": " + why};
    }
    return {node.name(),
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - began).count(),
            ""};
}

void DelayedRestart::restart() noexcept {
    std::lock_guard lock(mutex_);
    restarts_.clear();
    if (down_.empty()) return;
    const auto nodes = std::exchange(down_, {});
    if (!interruptible_sleep_until(interrupt_, down_at_ + std::chrono::milliseconds(delay_ms_))) {
        spdlog::info("{}: interrupted; {} stay down", fault_, node_names(nodes));
        return;
    }
    for (Node* n : nodes) {
        restarts_.push_back(start_node_again(*n, fault_));
        if (!restarts_.back().ready_ms) spdlog::warn("{}", restarts_.back().failure);
    }
}

std::vector<NodeRestart> DelayedRestart::restarts() const {
    std::lock_guard lock(mutex_);
    return restarts_;
}

std::string node_names(const std::vector<Node*>& nodes) {
    std::string names;
    for (const Node* n : nodes) names += (names.empty() ? "" : ", ") + n->name();
    return names;
}

}  // namespace lockcheck
