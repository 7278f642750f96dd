#include <string>

#include "core/option_kinds.hpp"
#include "nemesis/kill_restart.hpp"

namespace lockcheck {
namespace {

/// The longest downtime: 1 hour, like every other wait of a spec.
constexpr std::int64_t kMaxRestartDelayMs = 3'600'000;

}  // namespace

FaultDescriptor kill_restart_fault() {
    return {
        .name = "kill-restart",
        .description =
            "SIGKILL a node (kill_restart_nodes: several) the holder's lock is on, restart after restart_delay_ms",
        .options = {integer_option("kill_restart_nodes",
                                   "how many nodes of the holder's lock one event kills at once (at most the "
                                   "nodes the lock is on), restarted together",
                                   1, 1),
                    ttl_time_option("restart_delay_ms",
                                    "how long a killed node stays down: ms, or a multiple of ttl_ms like \"1.5xttl\"",
                                    TtlTime{}, false,
                                    [](std::int64_t delay) -> OptionProblem {
                                        if (delay >= 0 && delay <= kMaxRestartDelayMs) return std::nullopt;
                                        return "must come to at most " + std::to_string(kMaxRestartDelayMs) +
                                               " ms (1 hour), not " + std::to_string(delay);
                                    })},
        .count_option = "kill_restart_nodes",
        .make = [](const FaultTargets& targets, const nlohmann::json& options) -> std::unique_ptr<Fault> {
            return std::make_unique<KillRestart>(LockLocator(targets.topology, targets.server_password),
                                                 options.at("kill_restart_nodes").get<std::int64_t>(),
                                                 options.at("restart_delay_ms").get<std::int64_t>(), targets.interrupt);
        }};
}

}  // namespace lockcheck
