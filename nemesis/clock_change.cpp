#include "nemesis/clock_change.hpp"

#include <fmt/format.h>

namespace lockcheck {
namespace {

constexpr std::int64_t kNsPerMs = 1'000'000;

}  // namespace

ClockLine clock_jumped(ClockLine line, std::int64_t by_ns) {
    line.offset_ns += by_ns;
    return line;
}

ClockLine clock_with_rate(ClockLine line, std::int64_t rate_ppb, std::int64_t now_ns) {
    // shifted(t) = t + offset + (now - anchor) * (rate - 1): fold the drift so far into the offset.
    line.offset_ns = lc_clock_shift(&line, 0, now_ns);
    line.rate_ppb = rate_ppb;
    line.anchor_ns = now_ns;
    return line;
}

ClockState clock_struck(ClockState state, const ClockChange& change, std::int64_t now_ns) {
    const auto strike = [&](ClockLine line) {
        if (change.mode == ClockMode::drift) return clock_with_rate(line, change.rate_ppb, now_ns);
        return clock_jumped(line, change.jump_ms * kNsPerMs);
    };
    if (change.realtime) state.realtime = strike(state.realtime);
    if (change.monotonic) state.monotonic = strike(state.monotonic);
    return state;
}

ClockState clock_healed(ClockState state, const ClockChange& change, std::int64_t now_ns) {
    if (change.realtime) state.realtime = lc_clock_identity().realtime;
    if (change.monotonic) state.monotonic = clock_with_rate(state.monotonic, LC_RATE_ONE, now_ns);
    return state;
}

ClockState clock_strobed(ClockState state, const ClockChange& change, bool jumped) {
    state.realtime = lc_clock_identity().realtime;
    if (jumped) state.realtime.offset_ns = change.jump_ms * kNsPerMs;
    return state;
}

std::string clock_mode_name(ClockMode mode) {
    switch (mode) {
        case ClockMode::jump: return "jump";
        case ClockMode::drift: return "drift";
        case ClockMode::strobe: return "strobe";
    }
    return "jump";
}

std::string clock_change_summary(const ClockChange& change) {
    const std::string clocks = change.realtime && change.monotonic ? "realtime and monotonic"
                               : change.monotonic                  ? "monotonic"
                                                                   : "realtime";
    switch (change.mode) {
        case ClockMode::drift:
            return fmt::format("{} clock runs at rate {:.3f}", clocks, static_cast<double>(change.rate_ppb) / 1e9);
        case ClockMode::strobe:
            return fmt::format("{} clock strobes +{} ms / 0 every {} ms", clocks, change.jump_ms, change.strobe_ms);
        case ClockMode::jump: break;
    }
    return fmt::format("{} clock jumps by {} ms", clocks, change.jump_ms);
}

}  // namespace lockcheck
