// The fault schedule: when each fault starts, which kind, for how long.
//
// Generated up front from the run's seed, so the same seed gives the same
// schedule, or given explicitly (spec field `schedule`, read by
// nemesis/schedule_json.hpp in the form schedule_to_json writes). Targets
// that depend on the run (which worker holds the lock when a fault fires) are
// picked at run time with each event's own random `pick`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lockcheck {

struct FaultEvent {
    int id = 0;
    std::string kind;        ///< e.g. "pause-holder", "pause-node"
    std::int64_t at_ms = 0;  ///< start, ms after the run started
    std::int64_t duration_ms = 0;
    std::int64_t target_delay_ms = 0;  ///< pause-holder: how long into a critical section to strike
    std::uint64_t pick = 0;            ///< random number for choosing among targets
    /// The fault's options for this event (top-level spec fields such as
    /// restart_delay_ms, in stored form); null: the spec's.
    nlohmann::json options = nullptr;
    /// Trigger: from at_ms on, wait for a fresh grant and strike this many ms
    /// after it while its holder still holds (nemesis/fresh_grant.hpp); none:
    /// strike at at_ms.
    std::optional<std::int64_t> after_grant_ms;

    bool operator==(const FaultEvent&) const = default;
};

/// Which fault instance runs `event`: its kind, and its options when it has
/// its own (events with equal options share one instance).
std::string fault_instance_key(const FaultEvent& event);

struct ScheduleOptions {
    std::uint64_t seed = 0;
    std::vector<std::string> kinds;                     ///< chosen uniformly per event
    std::int64_t time_limit_ms = 0;                     ///< no event starts after this
    std::int64_t first_at_ms = 1000;                    ///< earliest start of the first event
    std::int64_t gap_min_ms = 1000, gap_max_ms = 3000;  ///< quiet time between faults
    std::int64_t duration_min_ms = 1500, duration_max_ms = 2500;
    std::int64_t strike_min_ms = 10, strike_max_ms = 50;  ///< target_delay_ms range
};

/// Events in start order; one fault at a time (each ends before the next starts).
std::vector<FaultEvent> generate_schedule(const ScheduleOptions& options);

/// The kinds of `schedule`'s events, each once, in order of first use.
std::vector<std::string> schedule_kinds(const std::vector<FaultEvent>& schedule);

/// The schedule as nemesis-schedule.json holds it and spec field `schedule`
/// takes it: [{"id", "fault", "at_ms", "duration_ms", "target_delay_ms",
/// "pick", "options" (when set), "after_grant_ms" (when set)}].
nlohmann::json schedule_to_json(const std::vector<FaultEvent>& schedule);

}  // namespace lockcheck
