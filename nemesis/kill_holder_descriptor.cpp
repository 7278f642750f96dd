#include "nemesis/kill_holder.hpp"

namespace lockcheck {

FaultDescriptor kill_holder_fault() {
    return {.name = "kill-holder",
            .description = "SIGKILL the worker holding the lock or half-way through acquiring it (a client crash)",
            .make = [](const FaultTargets& targets, const nlohmann::json&) -> std::unique_ptr<Fault> {
                return std::make_unique<KillHolder>(targets.workers);
            }};
}

}  // namespace lockcheck
