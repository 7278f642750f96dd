// Whether a spec's explicit fault schedule (spec field `schedule`) fits the
// run: its faults in the nemesis, their options known and within bounds,
// every event inside the time limit. Part of validate() (spec/spec.hpp) and plan_run (spec/run_plan.hpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "nemesis/fault_factory.hpp"
#include "spec/spec.hpp"

namespace lockcheck {

/// Calls `fail` (which throws) with field "schedule" and a reason naming the
/// event ("event 2: ...") for the first problem of `spec.schedule`; nothing
/// when the spec has none. Expects the rest of the spec checked already, and
/// `faults` the spec's nemesis resolved (spec/run_plan.hpp).
void check_schedule(const Spec& spec, const std::vector<ResolvedFault>& faults,
                    const std::function<void(const std::string&, const std::string&)>& fail);

}  // namespace lockcheck
