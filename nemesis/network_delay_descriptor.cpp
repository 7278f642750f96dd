#include "core/option_kinds.hpp"
#include "nemesis/proxy_node_fault.hpp"

namespace lockcheck {

FaultDescriptor delay_fault() {
    return {
        .name = "delay",
        .description =
            "every byte to and from one node (or every node: delay_nodes) waits delay_ms plus up to "
            "delay_jitter_ms, both ways (fault proxy; no root needed)",
        .options = {proxy_latency_option("delay_ms", "the latency delay adds each way: ms, or \"Nxttl\"",
                                         TtlTime{0, 0.5}),
                    proxy_latency_option("delay_jitter_ms",
                                         "the most delay adds on top of delay_ms, uniformly drawn: ms, or \"Nxttl\"",
                                         TtlTime{0, std::nullopt}),
                    choice_option("delay_nodes",
                                  "one (the event's pick among the client endpoints) or every (a slow network, "
                                  "wherever the clients connect)",
                                  "one", {"one", "every"})},
        .needs_proxy = true,
        .make = [](const FaultTargets& targets, const nlohmann::json& options) -> std::unique_ptr<Fault> {
            const std::chrono::milliseconds latency(options.at("delay_ms").get<std::int64_t>());
            const std::chrono::milliseconds jitter(options.at("delay_jitter_ms").get<std::int64_t>());
            return std::make_unique<ProxyNodeFault>("delay", targets.proxy, netproxy::faults::delay(latency, jitter),
                                                    options.at("delay_nodes").get<std::string>() == "every");
        },
        .refuses = [](const SpecView& spec) { return refuse_unproxied_topology("delay", spec); }};
}

}  // namespace lockcheck
