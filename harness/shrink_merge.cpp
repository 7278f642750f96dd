#include "harness/shrink_merge.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "harness/shrink_search.hpp"
#include "nemesis/fault_registry.hpp"

namespace lockcheck {
namespace {

std::int64_t count_of(const FaultEvent& event, const CountOption& option) {
    if (event.options.is_object())
        if (const auto it = event.options.find(option.name); it != event.options.end() && it->is_number_integer())
            return it->get<std::int64_t>();
    return option.unset;
}

}  // namespace

CountOptions count_options_of(const nlohmann::json& fault_options) {
    CountOptions counts;
    for (const auto& fault : fault_descriptors()) {
        if (fault.count_option.empty()) continue;
        CountOption option{fault.count_option, 1};
        if (const auto it = fault_options.find(option.name); it != fault_options.end() && it->is_number_integer())
            option.unset = it->get<std::int64_t>();
        counts[fault.name] = option;
    }
    return counts;
}

std::optional<MergedEvents> merge_events(const std::vector<FaultEvent>& events, const CountOptions& count_options) {
    MergedEvents merged;
    std::vector<std::string> done;
    for (const auto& [fault, option] : count_options) {
        std::vector<std::size_t> at;  // positions of the fault's events in `events`
        for (std::size_t i = 0; i < events.size(); ++i)
            if (events[i].kind == fault) at.push_back(i);
        if (at.size() < 2) continue;
        if (merged.events.empty()) merged.events = events;
        std::int64_t count = 0;
        std::vector<FaultEvent> removed;
        for (const auto i : at) {
            count += count_of(events[i], option);
            if (i != at.front()) removed.push_back(events[i]);
        }
        const int first_id = events[at.front()].id;
        std::erase_if(merged.events, [&](const FaultEvent& e) { return e.kind == fault && e.id != first_id; });
        FaultEvent& first = *std::find_if(merged.events.begin(), merged.events.end(),
                                          [&](const FaultEvent& e) { return e.id == first_id; });
        if (!first.options.is_object()) first.options = nlohmann::json::object();
        first.options[option.name] = count;
        done.push_back(fmt::format("{} ({}), merged into id {} with {} {}", event_ids(removed), fault, first_id,
                                   option.name, count));
        merged.removed.insert(merged.removed.end(), removed.begin(), removed.end());
    }
    if (done.empty()) return std::nullopt;
    merged.words = fmt::format("{} events: {}", merged.removed.size(), fmt::join(done, "; "));
    return merged;
}

}  // namespace lockcheck
