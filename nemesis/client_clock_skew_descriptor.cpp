#include "nemesis/client_clock_skew.hpp"
#include "nemesis/clock_fault_options.hpp"

namespace lockcheck {

FaultDescriptor client_clock_skew_fault() {
    return {.name = "client-clock-skew",
            .description =
                "move one worker's clocks (wall, monotonic or both: jump, drift or strobe) through the "
                "clock library in every worker, built-in or --client-cmd",
            .options = clock_fault_options("client_clock", "the target worker's"),
            .needs_worker_clock_library = true,
            .make = [](const FaultTargets& targets, const nlohmann::json& options) -> std::unique_ptr<Fault> {
                return std::make_unique<ClientClockSkew>(targets.workers, targets.worker_clock_workers_dir,
                                                         clock_change_from(options, "client_clock"));
            },
            .refuses = [](const SpecView& spec) { return clock_fault_refusal(spec, "client_clock"); }};
}

}  // namespace lockcheck
