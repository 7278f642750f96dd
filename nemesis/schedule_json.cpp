#include "nemesis/schedule_json.hpp"

#include <set>
#include <utility>
#include <string>

#include "core/json_integer.hpp"

namespace lockcheck {
namespace {

constexpr std::int64_t kDefaultTargetDelayMs = 10;

/// Reads the fields of one event, naming it in errors.
class EventReader {
public:
    EventReader(const nlohmann::json& event, std::size_t position) : event_(event), position_(position) {
        if (!event_.is_object()) fail("must be an object");
    }

    [[noreturn]] void fail(const std::string& reason) const {
        throw ScheduleFormError("event " + std::to_string(position_ + 1) + " " + reason);
    }
    [[noreturn]] void fail(const std::string& field, const std::string& reason) const {
        fail("field '" + field + "' " + reason);
    }

    const nlohmann::json* find(const char* field) {
        seen_.insert(field);
        const auto it = event_.find(field);
        return it == event_.end() ? nullptr : &*it;
    }

    template <typename Int>
    std::optional<Int> integer(const char* field, std::int64_t min) {
        const auto* v = find(field);
        if (!v) return std::nullopt;
        const auto value = json_integer<Int>(*v);
        if (!value || std::cmp_less(*value, min))
            fail(field, "must be an integer >= " + std::to_string(min));
        return value;
    }

    void reject_unknown() const {
        for (const auto& [key, value] : event_.items())
            if (!seen_.count(key)) fail(key, "is not a field of a schedule event");
    }

private:
    const nlohmann::json& event_;
    std::size_t position_;
    std::set<std::string> seen_;
};

std::string fault_name(EventReader& r) {
    const auto* fault = r.find("fault");
    const auto* kind = r.find("kind");
    if (fault && kind) r.fail("has both 'fault' and 'kind' (the same field; give 'fault')");
    const auto* name = fault ? fault : kind;
    if (!name) r.fail("has no field 'fault' (the fault's name, e.g. \"pause-holder\")");
    if (!name->is_string() || name->get<std::string>().empty()) r.fail(fault ? "fault" : "kind", "must be a fault's name");
    return name->get<std::string>();
}

FaultEvent event_from_json(const nlohmann::json& json, std::size_t position) {
    EventReader r(json, position);
    FaultEvent e;
    e.id = r.integer<int>("id", 1).value_or(static_cast<int>(position) + 1);
    e.kind = fault_name(r);
    e.after_grant_ms = r.integer<std::int64_t>("after_grant_ms", 0);
    const auto at = r.integer<std::int64_t>("at_ms", 0);
    if (!at && !e.after_grant_ms) r.fail("has no field 'at_ms' (its start, ms after the run started)");
    e.at_ms = at.value_or(0);
    const auto duration = r.integer<std::int64_t>("duration_ms", 0);
    if (!duration) r.fail("has no field 'duration_ms'");
    e.duration_ms = *duration;
    e.target_delay_ms = r.integer<std::int64_t>("target_delay_ms", 0).value_or(kDefaultTargetDelayMs);
    e.pick = r.integer<std::uint64_t>("pick", 0).value_or(0);
    if (const auto* options = r.find("options"); options && !options->is_null()) {
        if (!options->is_object()) r.fail("options", "must be an object of the fault's option fields");
        e.options = *options;
    }
    r.reject_unknown();
    return e;
}

}  // namespace

std::vector<FaultEvent> schedule_from_json(const nlohmann::json& list) {
    if (!list.is_array()) throw ScheduleFormError("must be a list of fault events");
    std::vector<FaultEvent> events;
    std::set<int> ids;
    for (std::size_t i = 0; i < list.size(); ++i) {
        FaultEvent e = event_from_json(list[i], i);
        const std::string which = "event " + std::to_string(i + 1);
        if (!ids.insert(e.id).second)
            throw ScheduleFormError(which + " field 'id' repeats id " + std::to_string(e.id) + " (ids must be unique)");
        if (!events.empty() && e.at_ms < events.back().at_ms)
            throw ScheduleFormError(which + " field 'at_ms' (" + std::to_string(e.at_ms) +
                                    ") is before the previous event's (" + std::to_string(events.back().at_ms) +
                                    "): events must be in start order");
        events.push_back(std::move(e));
    }
    return events;
}

}  // namespace lockcheck
