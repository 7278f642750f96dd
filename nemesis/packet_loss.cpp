#include "nemesis/packet_loss.hpp"

#include "clusters/network/firewall.hpp"

namespace lockcheck {

std::optional<std::string> PacketLoss::unavailable_reason() const {
    if (!namespaces_) return "it needs network namespaces (run as root)";
    if (!(probability_ > 0 && probability_ <= 1)) return "packet_loss must be in (0, 1]";
    return std::nullopt;
}

std::optional<std::vector<std::string>> PacketLoss::start(const FaultEvent& event, const std::stop_token&) {
    if (nodes_.empty()) return std::nullopt;
    std::lock_guard lock(mutex_);
    lossy_ = nodes_[event.pick % nodes_.size()];
    apply_firewall(*lossy_, packet_loss_rules(probability_));
    return std::vector<std::string>{lossy_->name()};
}

void PacketLoss::heal() noexcept {
    std::lock_guard lock(mutex_);
    if (lossy_) clear_firewall(*lossy_);
    lossy_ = nullptr;
}

}  // namespace lockcheck
