#include "core/option_kinds.hpp"
#include "nemesis/proxy_node_fault.hpp"
#include "nemesis/proxy_worker_fault.hpp"

namespace lockcheck {

FaultDescriptor client_partition_fault() {
    return {.name = "client-partition",
            .description = "cut the lock holder's connections to every server (blackhole or reset) while it keeps "
                           "running, so its lease expires while it believes it holds (fault proxy; no root needed)",
            .options = {choice_option("client_partition_mode",
                                      "what the holder's links do: blackhole (bytes vanish, calls hang until the "
                                      "client's timeout) or reset (every connection, new ones too, is reset)",
                                      "blackhole", {"blackhole", "reset"})},
            .needs_proxy = true,
            .make = [](const FaultTargets& targets, const nlohmann::json& options) -> std::unique_ptr<Fault> {
                const bool reset = options.at("client_partition_mode").get<std::string>() == "reset";
                return std::make_unique<ProxyWorkerFault>(
                    "client-partition", targets.workers, targets.proxy,
                    reset ? netproxy::faults::reset() : netproxy::faults::blackhole());
            },
            .refuses = [](const SpecView& spec) { return refuse_unproxied_topology("client-partition", spec); }};
}

}  // namespace lockcheck
