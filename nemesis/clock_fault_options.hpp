// The options the two clock faults share, as spec fields named after the
// fault (`base` "clock" for clock-skew, "client_clock" for client-clock-skew):
//
//   BASE_skew_ms      how far the clocks jump (jump, strobe): ms or "Nxttl", default "2xttl"
//   BASE_skew_clocks  realtime | monotonic | both (default realtime)
//   BASE_skew_mode    jump | drift | strobe (default jump)
//   BASE_rate         drift: how fast the clocks run, 0.1 to 10 (default 1.5: 50% fast)
//   BASE_strobe_ms    strobe: how long each phase lasts, default "0.25xttl"
//
// and the combinations refused at spec validation: a monotonic clock never
// goes back (no backward jump, no strobe).
#pragma once

#include <string>
#include <vector>

#include "core/option_descriptor.hpp"
#include "core/spec_view.hpp"
#include "nemesis/clock_change.hpp"

namespace lockcheck {

/// The options of the clock fault named by `base`; `whose` names what moves
/// in their descriptions ("the target nodes'", "the target worker's").
std::vector<OptionDescriptor> clock_fault_options(const std::string& base, const std::string& whose);

/// Why `spec` cannot run the clock fault named by `base`, or nullopt.
SpecVerdict clock_fault_refusal(const SpecView& spec, const std::string& base);

/// The change that the resolved options (core/option_descriptor.hpp) of the
/// clock fault named by `base` describe.
ClockChange clock_change_from(const nlohmann::json& options, const std::string& base);

}  // namespace lockcheck
