#include "nemesis/proxy_node_fault.hpp"

namespace lockcheck {

FaultDescriptor reset_fault() {
    return {.name = "reset",
            .description =
                "every connection to one node is reset, new ones too, until the heal (fault proxy; no root needed)",
            .needs_proxy = true,
            .make = [](const FaultTargets& targets, const nlohmann::json&) -> std::unique_ptr<Fault> {
                return std::make_unique<ProxyNodeFault>("reset", targets.proxy, netproxy::faults::reset());
            },
            .refuses = [](const SpecView& spec) { return refuse_unproxied_topology("reset", spec); }};
}

}  // namespace lockcheck
