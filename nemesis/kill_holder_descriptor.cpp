#include "core/option_kinds.hpp"
#include "nemesis/kill_holder.hpp"

namespace lockcheck {

FaultDescriptor kill_holder_fault() {
    return {.name = "kill-holder",
            .description = "SIGKILL the worker holding the lock or half-way through acquiring it (a client crash); "
                           "kill_holder_target acquiring-first prefers one whose acquire is in flight",
            .options = {choice_option("kill_holder_target",
                                      "which worker it kills: holder-or-acquiring (a holder, or a worker whose "
                                      "acquire has been in flight for the event's target_delay_ms) or acquiring-first "
                                      "(such an acquirer, waiting kill_holder_acquiring_wait_ms for one before taking "
                                      "a holder too)",
                                      "holder-or-acquiring", {"holder-or-acquiring", "acquiring-first"}),
                        integer_option("kill_holder_acquiring_wait_ms",
                                       "with kill_holder_target \"acquiring-first\": how long it waits for an "
                                       "acquire in flight before taking a holder too, in ms",
                                       1000, 1, 5000)},
            .make = [](const FaultTargets& targets, const nlohmann::json& options) -> std::unique_ptr<Fault> {
                const bool acquiring_first = options.at("kill_holder_target").get<std::string>() == "acquiring-first";
                const auto wait = std::chrono::milliseconds(options.at("kill_holder_acquiring_wait_ms").get<std::int64_t>());
                return std::make_unique<KillHolder>(targets.workers,
                                                    KillHolderTarget{acquiring_first ? wait : std::chrono::milliseconds(0)});
            }};
}

}  // namespace lockcheck
