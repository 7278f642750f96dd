#include "nemesis/clock_fault_options.hpp"

#include <cmath>

#include "core/option_kinds.hpp"
#include "core/ttl_time.hpp"

namespace lockcheck {
namespace {

/// The largest jump either way, and the longest strobe phase: 1 day.
constexpr std::int64_t kMaxClockSkewMs = 86'400'000;
/// The shortest strobe phase.
constexpr std::int64_t kMinStrobeMs = 10;

OptionDescriptor jump_option(const std::string& name, const std::string& whose) {
    return ttl_time_option(
        name, "how far " + whose + " clocks jump (negative: back; jump and strobe): ms, or \"Nxttl\"", TtlTime{0, 2.0},
        true, [](std::int64_t skew) -> OptionProblem {
            if (skew >= -kMaxClockSkewMs && skew <= kMaxClockSkewMs) return std::nullopt;
            return "must come to at most " + std::to_string(kMaxClockSkewMs) + " ms (1 day) either way";
        });
}

OptionDescriptor strobe_option(const std::string& name) {
    return ttl_time_option(name, "strobe: how long the wall clock stays jumped, then real, in turn: ms, or \"Nxttl\"",
                           TtlTime{0, 0.25}, false, [](std::int64_t ms) -> OptionProblem {
                               if (ms >= kMinStrobeMs && ms <= kMaxClockSkewMs) return std::nullopt;
                               return "must come to " + std::to_string(kMinStrobeMs) + " ms to 1 day";
                           });
}

bool moves_monotonic(const std::string& clocks) { return clocks == "monotonic" || clocks == "both"; }

}  // namespace

std::vector<OptionDescriptor> clock_fault_options(const std::string& base, const std::string& whose) {
    return {jump_option(base + "_skew_ms", whose),
            choice_option(base + "_skew_clocks",
                          "which of " + whose +
                              " clocks move: realtime (CLOCK_REALTIME, gettimeofday, time), "
                              "monotonic (CLOCK_MONOTONIC, BOOTTIME, their variants) or both",
                          "realtime", {"realtime", "monotonic", "both"}),
            choice_option(base + "_skew_mode",
                          "jump (by " + base + "_skew_ms while the fault lasts), drift (run at " + base +
                              "_rate) or strobe (the wall clock jumps back and forth every " + base + "_strobe_ms)",
                          "jump", {"jump", "drift", "strobe"}),
            number_option(base + "_rate", "drift: how fast " + whose + " clocks run (1.5: 50% fast, 0.5: half speed)",
                          1.5, 0.1, 10),
            strobe_option(base + "_strobe_ms")};
}

SpecVerdict clock_fault_refusal(const SpecView& spec, const std::string& base) {
    const auto& options = spec.fault_options;
    if (!moves_monotonic(options.at(base + "_skew_clocks").get<std::string>())) return std::nullopt;
    const std::string mode = options.at(base + "_skew_mode").get<std::string>();
    if (mode == "strobe")
        return SpecRefusal{base + "_skew_mode", "cannot be strobe when " + base +
                                                    "_skew_clocks moves the monotonic clock: it never goes back"};
    const auto jump = ttl_time_from_json(options.at(base + "_skew_ms"), true);
    if (mode == "jump" && jump && jump->resolve(spec.ttl_ms) < 0)
        return SpecRefusal{base + "_skew_ms", "must not be negative when " + base +
                                                  "_skew_clocks moves the monotonic clock: it never goes back"};
    return std::nullopt;
}

ClockChange clock_change_from(const nlohmann::json& options, const std::string& base) {
    const std::string clocks = options.at(base + "_skew_clocks").get<std::string>();
    const std::string mode = options.at(base + "_skew_mode").get<std::string>();
    ClockChange change;
    change.realtime = clocks != "monotonic";
    change.monotonic = moves_monotonic(clocks);
    change.mode = mode == "drift" ? ClockMode::drift : mode == "strobe" ? ClockMode::strobe : ClockMode::jump;
    change.jump_ms = options.at(base + "_skew_ms").get<std::int64_t>();
    change.rate_ppb = std::llround(options.at(base + "_rate").get<double>() * 1e9);
    change.strobe_ms = options.at(base + "_strobe_ms").get<std::int64_t>();
    return change;
}

}  // namespace lockcheck
