#include "nemesis/kill_restart.hpp"

namespace lockcheck {

std::optional<std::vector<std::string>> KillRestart::start(const FaultEvent& event, const std::stop_token& stop) {
    const auto candidates = locator_.nodes_of_current_lock(std::chrono::seconds(5), stop);
    if (candidates.empty()) return std::nullopt;
    Node* node = candidates[event.pick % candidates.size()];
    restart_.take_down({node}, [](const std::vector<Node*>& nodes) { nodes.front()->kill(); });
    return std::vector<std::string>{node->name()};
}

void KillRestart::heal() noexcept {
    restart_.restart([](const std::vector<Node*>& nodes) { nodes.front()->start(); });
}

}  // namespace lockcheck
