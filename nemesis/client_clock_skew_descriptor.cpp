#include "nemesis/client_clock_skew.hpp"
#include "nemesis/clock_fault_options.hpp"
#include "core/option_kinds.hpp"

namespace lockcheck {
namespace {

/// The clock options, and which worker it strikes (its aim).
std::vector<OptionDescriptor> client_clock_skew_options() {
    auto options = clock_fault_options("client_clock", "the target worker's");
    options.push_back(choice_option("client_clock_target",
                                    "which worker's clocks it moves, and when (its aim): any (every live worker), "
                                    "holder (a worker holding a lock), or as pause_client_target",
                                    "any", worker_aim_names()));
    return options;
}

}  // namespace

FaultDescriptor client_clock_skew_fault() {
    return {.name = "client-clock-skew",
            .description =
                "move one worker's clocks (wall, monotonic or both: jump, drift or strobe) through the "
                "clock library in every worker, built-in or --client-cmd",
            .options = client_clock_skew_options(),
            .needs_worker_clock_library = true,
            .make = [](const FaultTargets& targets, const nlohmann::json& options) -> std::unique_ptr<Fault> {
                return std::make_unique<ClientClockSkew>(
                    targets.workers, targets.worker_clock_workers_dir, clock_change_from(options, "client_clock"),
                    AimedTarget{worker_aim_named(options.at("client_clock_target").get<std::string>())
                                    .value_or(WorkerAim::Any)});
            },
            .refuses = [](const SpecView& spec) { return clock_fault_refusal(spec, "client_clock"); }};
}

}  // namespace lockcheck
