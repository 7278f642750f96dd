#include <string>

#include "core/option_kinds.hpp"
#include "nemesis/clock_skew.hpp"

namespace lockcheck {
namespace {

/// The largest jump either way: 1 day.
constexpr std::int64_t kMaxClockSkewMs = 86'400'000;

OptionDescriptor clock_skew_nodes_option() {
    return with_bound(
        integer_option("clock_skew_nodes", "how many nodes jump, 1 or 2", 1, 1),
        [](const nlohmann::json& value) { return value.get<std::int64_t>() <= 2; }, "must be 1 or 2");
}

}  // namespace

OptionDescriptor clock_jump_option(std::string name, std::string description) {
    return ttl_time_option(std::move(name), std::move(description), TtlTime{0, 2.0}, true,
                           [](std::int64_t skew) -> OptionProblem {
                               if (skew >= -kMaxClockSkewMs && skew <= kMaxClockSkewMs) return std::nullopt;
                               return "must come to at most " + std::to_string(kMaxClockSkewMs) +
                                      " ms (1 day) either way";
                           });
}

FaultDescriptor clock_skew_fault() {
    return {
        .name = "clock-skew",
        .description = "move one or two nodes' wall clocks by clock_skew_ms (LD_PRELOAD clock library)",
        .options = {clock_jump_option("clock_skew_ms",
                                      "how far the target nodes' clocks jump (negative: back): ms, or \"Nxttl\""),
                    clock_skew_nodes_option()},
        .needs_clock_library = true,
        .make = [](const FaultTargets& targets, const nlohmann::json& options) -> std::unique_ptr<Fault> {
            return std::make_unique<ClockSkew>(LockLocator(targets.topology, targets.server_password),
                                               options.at("clock_skew_ms").get<std::int64_t>(),
                                               static_cast<int>(options.at("clock_skew_nodes").get<std::int64_t>()));
        }};
}

}  // namespace lockcheck
