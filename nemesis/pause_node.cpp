#include "nemesis/pause_node.hpp"

#include <chrono>

#include "nemesis/worker_target.hpp"

namespace lockcheck {

std::optional<std::vector<std::string>> PauseNode::start(const FaultEvent& event, const std::stop_token& stop) {
    if (nodes_.empty()) return std::nullopt;
    if (aim_.while_held && !wait_for_worker_target([this] { return workers_.holders(); }, event.pick,
                                               std::chrono::steady_clock::now() + kWaitForWorkerTarget, stop))
        return std::nullopt;
    std::lock_guard lock(mutex_);
    Node* primary = aim_.primary_of ? aim_.primary_of->primary() : nullptr;
    paused_ = primary ? primary : nodes_[event.pick % nodes_.size()];
    paused_->pause();
    return std::vector<std::string>{paused_->name()};
}

void PauseNode::heal() noexcept {
    std::lock_guard lock(mutex_);
    if (paused_) paused_->resume();
    paused_ = nullptr;
}

}  // namespace lockcheck
