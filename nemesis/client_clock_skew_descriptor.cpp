#include "nemesis/client_clock_skew.hpp"
#include "nemesis/clock_skew.hpp"

namespace lockcheck {

FaultDescriptor client_clock_skew_fault() {
    return {.name = "client-clock-skew",
            .description = "move one worker's wall clock by client_clock_skew_ms (LD_PRELOAD clock library in every "
                           "worker, built-in or --client-cmd; monotonic clocks stay)",
            .options = {clock_jump_option("client_clock_skew_ms",
                                          "how far the target worker's wall clock jumps (negative: back): ms, or "
                                          "\"Nxttl\"")},
            .needs_worker_clock_library = true,
            .make = [](const FaultTargets& targets, const nlohmann::json& options) -> std::unique_ptr<Fault> {
                return std::make_unique<ClientClockSkew>(targets.workers, targets.worker_clock_workers_dir,
                                                         options.at("client_clock_skew_ms").get<std::int64_t>());
            }};
}

}  // namespace lockcheck
