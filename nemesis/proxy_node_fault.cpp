#include "nemesis/proxy_node_fault.hpp"

#include <spdlog/spdlog.h>

#include "core/option_kinds.hpp"

namespace lockcheck {

std::optional<std::string> proxy_unavailable_reason(const ProxiedNetwork* proxy) {
    if (!proxy) return "the run has no fault proxy";
    if (proxy->node_count() == 0) return "the topology has no client endpoint";
    return std::nullopt;
}

SpecVerdict refuse_unproxied_topology(const std::string& fault, const SpecView& spec) {
    if (spec.topology != "redis-sentinel") return std::nullopt;
    return SpecRefusal{"nemesis", "cannot use " + fault +
                                      " on topology redis-sentinel: its clients get the primary's address from "
                                      "Sentinel, so they would not go through the fault proxy"};
}

OptionDescriptor proxy_latency_option(std::string name, std::string description, TtlTime default_value) {
    constexpr std::int64_t kMaxLatencyMs = 12 * 3'600'000;
    return ttl_time_option(std::move(name), std::move(description), default_value, false,
                           [](std::int64_t latency) -> OptionProblem {
                               if (latency >= 0 && latency <= kMaxLatencyMs) return std::nullopt;
                               return "must come to at most " + std::to_string(kMaxLatencyMs) + " ms (12 hours), not " +
                                      std::to_string(latency);
                           });
}

std::optional<std::string> ProxyNodeFault::unavailable_reason() const { return proxy_unavailable_reason(proxy_); }

std::optional<std::vector<std::string>> ProxyNodeFault::start(const FaultEvent& event, const std::stop_token&) {
    std::lock_guard lock(mutex_);
    const int node = static_cast<int>(event.pick % static_cast<std::uint64_t>(proxy_->node_count()));
    proxy_->set_node_fault(node, fault_);
    struck_ = node;
    spdlog::info("{}: {} on every link to {}", kind_, netproxy::describe(fault_), proxy_->upstream(node));
    return std::vector<std::string>{"proxy to " + proxy_->upstream(node)};
}

void ProxyNodeFault::heal() noexcept {
    std::lock_guard lock(mutex_);
    if (!struck_) return;
    try {
        proxy_->set_node_fault(*struck_, netproxy::faults::pass());
    } catch (const std::exception& e) {
        spdlog::warn("{}: heal: {}", kind_, e.what());
        proxy_->heal_all();
    }
    struck_.reset();
}

}  // namespace lockcheck
