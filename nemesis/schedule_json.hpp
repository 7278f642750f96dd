// Reading an explicit fault schedule (spec field `schedule`) from JSON: the
// form nemesis-schedule.json holds (schedule_to_json), so a run's schedule
// can be pasted into a spec as it is. Only the form is checked here; whether
// each fault and its options fit the run is checked with the rest of the
// spec (spec/schedule_validation.cpp).
#pragma once

#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "nemesis/schedule.hpp"

namespace lockcheck {

/// A schedule that cannot be read; the message starts with the event
/// ("event 2: field 'at_ms' must be ...") and follows "field 'schedule' ".
class ScheduleFormError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

/// Reads a list of events. Each is an object with `fault` (a fault's name;
/// `kind` is taken too, as runs before this field was named wrote it),
/// `duration_ms` (integer >= 0), `at_ms` (integer >= 0; optional, 0, with
/// `after_grant_ms`), and optionally `id` (integer >= 1, unique; default its
/// position from 1), `target_delay_ms` (default 10), `pick` (default 0),
/// `options` (an object of the fault's option fields) and `after_grant_ms`
/// (integer >= 0). Events must be in start order (at_ms never decreasing);
/// unknown fields are refused. Throws ScheduleFormError.
std::vector<FaultEvent> schedule_from_json(const nlohmann::json& list);

}  // namespace lockcheck
