#include "nemesis/pause_holder.hpp"

namespace lockcheck {

FaultDescriptor pause_holder_fault() {
    return {.name = "pause-holder",
            .description = "SIGSTOP the worker holding the lock (a stop-the-world GC), then SIGCONT",
            .make = [](const FaultTargets& targets, const nlohmann::json&) -> std::unique_ptr<Fault> {
                return std::make_unique<PauseHolder>(targets.workers);
            }};
}

}  // namespace lockcheck
