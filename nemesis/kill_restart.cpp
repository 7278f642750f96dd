#include "nemesis/kill_restart.hpp"

#include <algorithm>

namespace lockcheck {

std::vector<Node*> kill_restart_targets(const std::vector<Node*>& lock_nodes, std::uint64_t pick, std::size_t count) {
    std::vector<Node*> targets;
    if (lock_nodes.empty()) return targets;
    const std::size_t first = pick % lock_nodes.size();
    for (std::size_t i = 0; i < std::min(count, lock_nodes.size()); ++i)
        targets.push_back(lock_nodes[(first + i) % lock_nodes.size()]);
    return targets;
}

std::optional<std::vector<std::string>> KillRestart::start(const FaultEvent& event, const std::stop_token& stop) {
    const auto targets =
        kill_restart_targets(locator_.nodes_of_current_lock(std::chrono::seconds(5), stop), event.pick, nodes_);
    if (targets.empty()) return std::nullopt;
    restart_.take_down(targets, [](const std::vector<Node*>& nodes) {
        for (Node* n : nodes) n->kill();
    });
    std::vector<std::string> names;
    for (const Node* n : targets) names.push_back(n->name());
    return names;
}

}  // namespace lockcheck
