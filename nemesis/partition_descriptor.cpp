#include "core/option_kinds.hpp"
#include "nemesis/partition.hpp"

namespace lockcheck {

FaultDescriptor partition_fault() {
    return {.name = "partition",
            .description = "iptables partition inside the node namespaces, by partition_mode (needs namespaces)",
            .options = {choice_option("partition_mode", "which nodes lose each other (docs/nemesis.md)", "isolate-one",
                                      partition_modes())},
            .needs_namespaces = true,
            .make = [](const FaultTargets& targets, const nlohmann::json& options) -> std::unique_ptr<Fault> {
                return std::make_unique<Partition>(targets.topology, targets.namespaces,
                                                   options.at("partition_mode").get<std::string>());
            }};
}

}  // namespace lockcheck
