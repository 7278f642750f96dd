#include "core/option_kinds.hpp"
#include "nemesis/partition.hpp"

namespace lockcheck {

FaultDescriptor partition_fault() {
    return {.name = "partition",
            .description =
                "cut servers off from each other by partition_mode (clients still reach every node): iptables "
                "in the node namespaces, or in loopback mode the fault proxy's peer links (Redis, ZooKeeper, MariaDB "
                "replication)",
            .options = {choice_option("partition_mode", "which nodes lose each other (docs/nemesis.md)", "isolate-one",
                                      partition_modes())},
            .cuts_peers = true,
            .make = [](const FaultTargets& targets, const nlohmann::json& options) -> std::unique_ptr<Fault> {
                return std::make_unique<Partition>(targets.topology, targets.namespaces, targets.peer_links,
                                                   options.at("partition_mode").get<std::string>());
            }};
}

}  // namespace lockcheck
