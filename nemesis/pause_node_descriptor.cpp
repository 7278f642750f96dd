#include "core/option_kinds.hpp"
#include "nemesis/pause_node.hpp"

namespace lockcheck {

FaultDescriptor pause_node_fault() {
    return {.name = "pause-node",
            .description = "SIGSTOP a server node, then SIGCONT; pause_node_target while-held waits for a holder",
            .options = {choice_option("pause_node_target",
                                      "when it stops the node: any (at the event's time) or while-held (waiting up "
                                      "to 5 s for some worker to hold a lock, so its lease runs out in the stall)",
                                      "any", {"any", "while-held"})},
            .make = [](const FaultTargets& targets, const nlohmann::json& options) -> std::unique_ptr<Fault> {
                return std::make_unique<PauseNode>(targets.topology.nodes(), targets.workers,
                                                   options.at("pause_node_target").get<std::string>() == "while-held");
            }};
}

}  // namespace lockcheck
