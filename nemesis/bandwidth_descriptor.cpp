#include "core/option_kinds.hpp"
#include "nemesis/proxy_node_fault.hpp"

namespace lockcheck {

FaultDescriptor bandwidth_fault() {
    return {.name = "bandwidth",
            .description =
                "the bytes to and from one node flow at most bandwidth_bytes_per_s each way, in order "
                "(fault proxy; no root needed)",
            .options = {integer_option("bandwidth_bytes_per_s",
                                       "the most bytes per second each direction of each connection to the node "
                                       "carries (a token bucket with a burst of 20 ms of it, at least 1500 bytes)",
                                       2000, 1)},
            .needs_proxy = true,
            .make = [](const FaultTargets& targets, const nlohmann::json& options) -> std::unique_ptr<Fault> {
                const auto rate = options.at("bandwidth_bytes_per_s").get<std::uint64_t>();
                return std::make_unique<ProxyNodeFault>("bandwidth", targets.proxy, netproxy::faults::bandwidth(rate));
            },
            .refuses = [](const SpecView& spec) { return refuse_unproxied_topology("bandwidth", spec); }};
}

}  // namespace lockcheck
