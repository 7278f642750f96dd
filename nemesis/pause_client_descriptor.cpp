#include "core/option_kinds.hpp"
#include "nemesis/pause_client.hpp"

namespace lockcheck {

FaultDescriptor pause_client_fault() {
    return {.name = "pause-client",
            .description = "SIGSTOP any worker, holder or waiter (a GC pause), then SIGCONT; "
                           "pause_client_target \"waiting\": only a worker whose acquire is in flight",
            .options = {choice_option("pause_client_target",
                                      "which workers it may stop: any (every live worker) or waiting (acquire in "
                                      "flight for at least pause_client_waiting_for_ms)",
                                      "any", {"any", "waiting"}),
                        integer_option("pause_client_waiting_for_ms",
                                       "with pause_client_target \"waiting\": how long the acquire has been in "
                                       "flight at least, in ms",
                                       0, 0, 3'600'000)},
            .make = [](const FaultTargets& targets, const nlohmann::json& options) -> std::unique_ptr<Fault> {
                return std::make_unique<PauseClient>(
                    targets.workers,
                    PauseClientTarget{options.at("pause_client_target").get<std::string>() == "waiting",
                                      std::chrono::milliseconds(
                                          options.at("pause_client_waiting_for_ms").get<std::int64_t>())});
            }};
}

}  // namespace lockcheck
