#include "core/option_kinds.hpp"
#include "nemesis/pause_client.hpp"

namespace lockcheck {

FaultDescriptor pause_client_fault() {
    return {.name = "pause-client",
            .description = "SIGSTOP any worker, holder or waiter (a GC pause), then SIGCONT; "
                           "pause_client_target aims it at a moment: a waiter, a renew in flight, a lone holder",
            .options = {choice_option("pause_client_target",
                                      "which worker it stops, and when (its aim): any (every live worker), waiting "
                                      "(acquire in flight for at least pause_client_waiting_for_ms), renewing (a "
                                      "holder whose renew was sent, not yet answered; any holder until the run's "
                                      "first renew), lone-holder (the only worker holding or waiting) or holder (any holder)",
                                      "any", worker_aim_names()),
                        integer_option("pause_client_waiting_for_ms",
                                       "with pause_client_target \"waiting\": how long the acquire has been in "
                                       "flight at least, in ms",
                                       0, 0, 3'600'000)},
            .make = [](const FaultTargets& targets, const nlohmann::json& options) -> std::unique_ptr<Fault> {
                return std::make_unique<PauseClient>(
                    targets.workers,
                    PauseClientTarget{worker_aim_named(options.at("pause_client_target").get<std::string>())
                                          .value_or(WorkerAim::Any),
                                      std::chrono::milliseconds(
                                          options.at("pause_client_waiting_for_ms").get<std::int64_t>())});
            }};
}

}  // namespace lockcheck
