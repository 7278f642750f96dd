#include "nemesis/proxy_link_fault.hpp"

#include <spdlog/spdlog.h>

namespace lockcheck {

std::optional<std::string> proxy_unavailable_reason(const ProxiedNetwork* proxy) {
    if (!proxy) return "the run has no fault proxy";
    if (proxy->node_count() == 0) return "the topology has no client endpoint";
    return std::nullopt;
}

void ProxyLinkFault::strike(int target) {
    std::lock_guard lock(mutex_);
    set_links(target, fault_);
    struck_.push_back(target);
}

void ProxyLinkFault::heal() noexcept {
    std::lock_guard lock(mutex_);
    try {
        for (const int target : struck_) set_links(target, netproxy::faults::pass());
    } catch (const std::exception& e) {
        spdlog::warn("{}: heal: {}", kind_, e.what());
        proxy_->heal_all();
    }
    struck_.clear();
}

}  // namespace lockcheck
