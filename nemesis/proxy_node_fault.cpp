#include "nemesis/proxy_node_fault.hpp"

#include <spdlog/spdlog.h>

#include "core/option_kinds.hpp"

namespace lockcheck {

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

std::optional<std::vector<std::string>> ProxyNodeFault::start(const FaultEvent& event, const std::stop_token&) {
    const int count = proxy_->node_count();
    const int picked = static_cast<int>(event.pick % static_cast<std::uint64_t>(count));
    std::vector<std::string> targets;
    for (int node = 0; node < count; ++node) {
        if (!every_node_ && node != picked) continue;
        strike(node);
        spdlog::info("{}: {} on every link to {}", kind(), netproxy::describe(fault_), proxy_->upstream(node));
        targets.push_back("proxy to " + proxy_->upstream(node));
    }
    return targets;
}

}  // namespace lockcheck
