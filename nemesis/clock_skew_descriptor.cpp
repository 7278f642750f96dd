#include <string>

#include "core/option_kinds.hpp"
#include "nemesis/clock_fault_options.hpp"
#include "nemesis/clock_skew.hpp"

namespace lockcheck {
namespace {

OptionDescriptor clock_skew_nodes_option() {
    return with_bound(
        integer_option("clock_skew_nodes", "how many nodes' clocks move, 1 or 2", 1, 1),
        [](const nlohmann::json& value) { return value.get<std::int64_t>() <= 2; }, "must be 1 or 2");
}

std::vector<OptionDescriptor> clock_skew_options() {
    auto options = clock_fault_options("clock", "the target nodes'");
    options.push_back(clock_skew_nodes_option());
    return options;
}

}  // namespace

FaultDescriptor clock_skew_fault() {
    return {.name = "clock-skew",
            .description =
                "move one or two nodes' clocks (wall, monotonic or both: jump, drift or strobe) through the "
                "clock library (LD_PRELOAD and the vDSO)",
            .options = clock_skew_options(),
            .needs_clock_library = true,
            .make = [](const FaultTargets& targets, const nlohmann::json& options) -> std::unique_ptr<Fault> {
                return std::make_unique<ClockSkew>(
                    LockLocator(targets.topology, targets.server_password), clock_change_from(options, "clock"),
                    static_cast<int>(options.at("clock_skew_nodes").get<std::int64_t>()));
            },
            .refuses = [](const SpecView& spec) { return clock_fault_refusal(spec, "clock"); }};
}

}  // namespace lockcheck
