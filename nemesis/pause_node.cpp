#include "nemesis/pause_node.hpp"

namespace lockcheck {

std::optional<std::vector<std::string>> PauseNode::start(const FaultEvent& event, const std::stop_token&) {
    if (nodes_.empty()) return std::nullopt;
    std::lock_guard lock(mutex_);
    paused_ = nodes_[event.pick % nodes_.size()];
    paused_->pause();
    return std::vector<std::string>{paused_->name()};
}

void PauseNode::heal() noexcept {
    std::lock_guard lock(mutex_);
    if (paused_) paused_->resume();
    paused_ = nullptr;
}

}  // namespace lockcheck
