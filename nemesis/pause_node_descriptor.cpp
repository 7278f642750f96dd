#include "core/option_kinds.hpp"
#include "nemesis/pause_node.hpp"

namespace lockcheck {

FaultDescriptor pause_node_fault() {
    return {.name = "pause-node",
            .description = "SIGSTOP a server node, then SIGCONT; pause_node_target while-held waits for a holder",
            .options = {choice_option("pause_node_target",
                                      "when and where it stops: any (a node at the event's time), while-held "
                                      "(waiting up to 5 s for some worker to hold a lock, so its lease runs out in "
                                      "the stall) or primary-while-held (the same, stopping the primary)",
                                      "any", {"any", "while-held", "primary-while-held"})},
            .make = [](const FaultTargets& targets, const nlohmann::json& options) -> std::unique_ptr<Fault> {
                const auto target = options.at("pause_node_target").get<std::string>();
                const bool primary = target == "primary-while-held";
                return std::make_unique<PauseNode>(
                    targets.topology.nodes(), targets.workers,
                    PauseNode::Aim{primary || target == "while-held", primary ? &targets.topology : nullptr});
            }};
}

}  // namespace lockcheck
