#include "nemesis/schedule.hpp"

#include <algorithm>
#include <random>

namespace lockcheck {
namespace {

std::int64_t uniform(std::mt19937_64& rng, std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, std::max(lo, hi))(rng);
}

}  // namespace

std::vector<FaultEvent> generate_schedule(const ScheduleOptions& o) {
    std::vector<FaultEvent> events;
    if (o.kinds.empty()) return events;
    std::mt19937_64 rng(o.seed);
    std::int64_t at = o.first_at_ms + uniform(rng, 0, o.gap_max_ms - o.gap_min_ms);
    while (at < o.time_limit_ms) {
        FaultEvent e;
        e.id = static_cast<int>(events.size()) + 1;
        e.kind = o.kinds[static_cast<std::size_t>(uniform(rng, 0, static_cast<std::int64_t>(o.kinds.size()) - 1))];
        e.at_ms = at;
        e.duration_ms = uniform(rng, o.duration_min_ms, o.duration_max_ms);
        e.target_delay_ms = uniform(rng, o.strike_min_ms, o.strike_max_ms);
        e.pick = rng();
        events.push_back(e);
        at += e.duration_ms + uniform(rng, o.gap_min_ms, o.gap_max_ms);
    }
    return events;
}

std::string fault_instance_key(const FaultEvent& event) {
    return event.options.is_null() ? event.kind : event.kind + " " + event.options.dump();
}

std::vector<std::string> schedule_kinds(const std::vector<FaultEvent>& schedule) {
    std::vector<std::string> kinds;
    for (const auto& e : schedule)
        if (std::find(kinds.begin(), kinds.end(), e.kind) == kinds.end()) kinds.push_back(e.kind);
    return kinds;
}

nlohmann::json schedule_to_json(const std::vector<FaultEvent>& schedule) {
    auto out = nlohmann::json::array();
    for (const auto& e : schedule) {
        nlohmann::json event{{"id", e.id},
                             {"fault", e.kind},
                             {"at_ms", e.at_ms},
                             {"duration_ms", e.duration_ms},
                             {"target_delay_ms", e.target_delay_ms},
                             {"pick", e.pick}};
        if (!e.options.is_null()) event["options"] = e.options;
        if (e.after_grant_ms) event["after_grant_ms"] = *e.after_grant_ms;
        out.push_back(std::move(event));
    }
    return out;
}

}  // namespace lockcheck
