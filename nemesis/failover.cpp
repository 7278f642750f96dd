#include "nemesis/failover.hpp"

#include <spdlog/spdlog.h>

#include "clusters/network/firewall.hpp"
#include "core/interruptible_sleep.hpp"

namespace lockcheck {
namespace {

constexpr auto kSettleWait = std::chrono::seconds(8);
constexpr auto kPromotionWait = std::chrono::seconds(15);

}  // namespace

std::optional<std::string> Failover::unavailable_reason() const {
    if (!election_) return "it needs topology redis-sentinel or mysql-replicated";
    if (!namespaces_ && !peer_links_) return "it needs network namespaces (run as root)";
    return std::nullopt;
}

std::optional<std::vector<std::string>> Failover::start(const FaultEvent& event, const std::stop_token& stop) {
    Node* primary = nullptr;  // after kSettleWait, the primary even if the cluster has not settled
    const auto asked = std::chrono::steady_clock::now();
    const bool settled = poll_until(
        [&] {
            primary = topology_.primary();
            return primary && election_->settled_on(*primary);
        },
        kSettleWait, std::chrono::milliseconds(50), stop);
    spdlog::info(
        "failover #{}: waited {} ms for the cluster to settle{}", event.id,
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - asked).count(),
        settled                 ? ""
        : stop.stop_requested() ? " (stopped: the run is ending)"
                                : " (it did not settle; going ahead)");
    if (!primary || stop.stop_requested()) return std::nullopt;
    std::vector<std::string> peers;
    for (Node* n : topology_.nodes())
        if (n != primary) peers.push_back(n->address());
    std::lock_guard lock(mutex_);
    if (namespaces_) {
        apply_firewall(*primary, isolation_rules(peers));
    } else {
        const auto caught = peer_links_->isolate({primary->address()}, peers);
        spdlog::info("failover #{}: {} cut off from its peers ({} open peer connections held)", event.id,
                     primary->name(), caught);
    }
    cut_ = primary;
    stop_ = stop;
    cut_at_ = std::chrono::steady_clock::now();
    return std::vector<std::string>{primary->name()};
}

void Failover::heal() noexcept {
    std::lock_guard lock(mutex_);
    if (!cut_) return;
    try {
        const auto give_up = cut_at_ + kPromotionWait;
        poll_until(
            [&] {
                Node* now = topology_.primary();
                return now && now != cut_;
            },
            give_up - std::chrono::steady_clock::now(), std::chrono::milliseconds(50), stop_);
    } catch (...) {}
    if (namespaces_)
        clear_firewall(*cut_);
    else
        peer_links_->heal();
    cut_ = nullptr;
}

}  // namespace lockcheck
