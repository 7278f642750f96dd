// The fault schedule: when each fault starts, which kind, for how long.
//
// Generated up front from the run's seed, so the same seed gives the same
// schedule. Targets that depend on the run (which worker holds the lock when a
// fault fires) are picked at run time with each event's own random `pick`.
#pragma once

#include <cstdint>
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
};

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

nlohmann::json schedule_to_json(const std::vector<FaultEvent>& schedule);

}  // namespace lockcheck
