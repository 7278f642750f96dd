// What a clock fault does to one process's clocks (clock-skew on nodes,
// client-clock-skew on workers), as pure changes of its clock state
// (clusters/clock_offset.hpp): which clocks move, and how.
//
// - jump: the clocks' offset moves by jump_ms while the fault lasts;
// - drift: the clocks run at `rate_ppb` (10^9 = true rate) from the strike on;
// - strobe: the wall clock's offset alternates jump_ms / 0 every strobe_ms
//   while the fault lasts (the harness flips it: nemesis/clock_action.hpp).
//
// At the heal the wall clock jumps back to the real time; a monotonic clock
// never goes back, so it keeps what it gained or lost and runs at the true
// rate again. Every rate change is continuous: the clock's reading at the
// change stays, only its speed changes.
#pragma once

#include <cstdint>
#include <string>

#include "clusters/clock_offset.hpp"

namespace lockcheck {

enum class ClockMode { jump, drift, strobe };

struct ClockChange {
    bool realtime = true;    ///< CLOCK_REALTIME and its variants, gettimeofday, time
    bool monotonic = false;  ///< CLOCK_MONOTONIC and its variants (_COARSE, _RAW, BOOTTIME)
    ClockMode mode = ClockMode::jump;
    std::int64_t jump_ms = 0;             ///< jump and strobe (monotonic: >= 0)
    std::int64_t rate_ppb = LC_RATE_ONE;  ///< drift
    std::int64_t strobe_ms = 0;           ///< strobe: how long each phase lasts
};

/// `line` with its offset moved by `by_ns`: its drift goes on unchanged.
ClockLine clock_jumped(ClockLine line, std::int64_t by_ns);

/// `line` running at `rate_ppb` from `now_ns` (the real wall clock) on, with
/// the same reading at `now_ns`: the drift so far becomes part of the offset.
ClockLine clock_with_rate(ClockLine line, std::int64_t rate_ppb, std::int64_t now_ns);

/// `state` as `change` leaves it when it strikes at `now_ns`.
ClockState clock_struck(ClockState state, const ClockChange& change, std::int64_t now_ns);

/// `state` as the heal of `change` at `now_ns` leaves it: the wall clock
/// back to the real time (when the change moved it), the monotonic clock at
/// the true rate with its offset kept.
ClockState clock_healed(ClockState state, const ClockChange& change, std::int64_t now_ns);

/// `state` in the strobe's phase `jumped` (the wall clock at +jump_ms) or not (at the real time).
ClockState clock_strobed(ClockState state, const ClockChange& change, bool jumped);

/// "jump", "drift" or "strobe".
std::string clock_mode_name(ClockMode mode);

/// A short account of `change` for the run's log: "realtime jump by 2000 ms".
std::string clock_change_summary(const ClockChange& change);

}  // namespace lockcheck
