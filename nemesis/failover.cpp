#include "nemesis/failover.hpp"

#include <thread>

#include "clusters/firewall.hpp"

namespace lockcheck {
namespace {

constexpr auto kSettleWait = std::chrono::seconds(8);
constexpr auto kPromotionWait = std::chrono::seconds(15);

}  // namespace

std::optional<std::string> Failover::unavailable_reason() const {
    if (!topology_) return "it needs topology redis-sentinel or mysql-replicated";
    if (!namespaces_) return "it needs network namespaces (run as root)";
    return std::nullopt;
}

std::optional<std::vector<std::string>> Failover::start(const FaultEvent&, const std::atomic<bool>& stop) {
    const auto settle_by = std::chrono::steady_clock::now() + kSettleWait;
    Node* primary = topology_->primary();
    while (!stop && std::chrono::steady_clock::now() < settle_by &&
           !(primary && topology_->settled(*primary, RedisSentinel::kRedisNodes - 1))) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        primary = topology_->primary();
    }
    if (!primary || stop) return std::nullopt;
    std::vector<std::string> peers;
    for (Node* n : topology_->nodes())
        if (n != primary) peers.push_back(n->address());
    std::lock_guard lock(mutex_);
    apply_firewall(*primary, isolation_rules(peers));
    cut_ = primary;
    stop_ = &stop;
    cut_at_ = std::chrono::steady_clock::now();
    return std::vector<std::string>{primary->name()};
}

void Failover::heal() noexcept {
    std::lock_guard lock(mutex_);
    if (!cut_) return;
    try {
        const auto give_up = cut_at_ + kPromotionWait;
        while (!(stop_ && *stop_) && std::chrono::steady_clock::now() < give_up) {
            Node* now = topology_->primary();
            if (now && now != cut_) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    } catch (...) {
    }
    clear_firewall(*cut_);
    cut_ = nullptr;
}

}  // namespace lockcheck
