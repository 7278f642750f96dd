#include "nemesis/pause_node.hpp"

namespace lockcheck {

FaultDescriptor pause_node_fault() {
    return {.name = "pause-node",
            .description = "SIGSTOP a server node, then SIGCONT",
            .make = [](const FaultTargets& targets, const nlohmann::json&) -> std::unique_ptr<Fault> {
                return std::make_unique<PauseNode>(targets.topology.nodes());
            }};
}

}  // namespace lockcheck
