#include "nemesis/proxy_node_fault.hpp"

namespace lockcheck {

FaultDescriptor blackhole_fault() {
    return {.name = "blackhole",
            .description =
                "connections to one node are accepted and nothing is ever answered (fault proxy; no root needed)",
            .needs_proxy = true,
            .make = [](const FaultTargets& targets, const nlohmann::json&) -> std::unique_ptr<Fault> {
                return std::make_unique<ProxyNodeFault>("blackhole", targets.proxy, netproxy::faults::blackhole());
            },
            .refuses = [](const SpecView& spec) { return refuse_unproxied_topology("blackhole", spec); }};
}

}  // namespace lockcheck
