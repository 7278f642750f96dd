#include "nemesis/fault_factory.hpp"

#include <algorithm>
#include <stdexcept>

#include "nemesis/kill_holder.hpp"
#include "nemesis/pause_holder.hpp"
#include "nemesis/pause_node.hpp"

namespace lockcheck {

const std::vector<FaultKind>& fault_kinds() {
    static const std::vector<FaultKind> kinds{
        {"pause-holder", "SIGSTOP the worker holding the lock (a stop-the-world GC), then SIGCONT"},
        {"pause-node", "SIGSTOP a server node, then SIGCONT"},
        {"kill-holder", "SIGKILL the worker holding the lock or half-way through acquiring it (a client crash)"},
    };
    return kinds;
}

bool is_fault_kind(const std::string& name) {
    const auto& kinds = fault_kinds();
    return std::any_of(kinds.begin(), kinds.end(), [&](const FaultKind& k) { return k.name == name; });
}

std::map<std::string, std::unique_ptr<Fault>> make_faults(const std::vector<std::string>& kinds,
                                                          const FaultTargets& targets) {
    std::map<std::string, std::unique_ptr<Fault>> faults;
    for (const auto& kind : kinds) {
        std::unique_ptr<Fault> fault;
        if (kind == "pause-holder") fault = std::make_unique<PauseHolder>(targets.workers);
        else if (kind == "pause-node") fault = std::make_unique<PauseNode>(targets.topology.nodes());
        else if (kind == "kill-holder") fault = std::make_unique<KillHolder>(targets.workers);
        else throw std::invalid_argument("unknown fault '" + kind + "'");
        if (auto reason = fault->unavailable_reason())
            throw std::invalid_argument("fault '" + kind + "' is unavailable here: " + *reason);
        faults[kind] = std::move(fault);
    }
    return faults;
}

}  // namespace lockcheck
