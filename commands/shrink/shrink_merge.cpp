#include "commands/shrink/shrink_merge.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "core/counted.hpp"
#include "commands/shrink/shrink_search.hpp"
#include "nemesis/fault_registry.hpp"

namespace lockcheck {
std::int64_t event_count(const FaultEvent& event, const CountOption& option) {
    if (event.options.is_object())
        if (const auto it = event.options.find(option.name); it != event.options.end() && it->is_number_integer())
            return it->get<std::int64_t>();
    return option.unset;
}

FaultEvent with_count(FaultEvent event, const CountOption& option, std::int64_t count) {
    if (!event.options.is_object()) event.options = nlohmann::json::object();
    event.options[option.name] = count;
    return event;
}

CountOptions count_options_of(const nlohmann::json& fault_options, std::int64_t most_targets) {
    CountOptions counts;
    for (const auto& fault : fault_descriptors()) {
        if (fault.count_option.empty()) continue;
        CountOption option{fault.count_option, 1, most_targets};
        if (const auto it = fault_options.find(option.name); it != fault_options.end() && it->is_number_integer())
            option.unset = it->get<std::int64_t>();
        counts[fault.name] = option;
    }
    return counts;
}

std::optional<MergedEvents> merge_events(const std::vector<FaultEvent>& events, const CountOptions& count_options,
                                         std::int64_t window_ms) {
    MergedEvents merged{events, {}, ""};
    std::vector<std::string> done;
    for (const auto& [fault, option] : count_options) {
        const auto first = std::find_if(merged.events.begin(), merged.events.end(),
                                        [&](const FaultEvent& e) { return e.kind == fault; });
        if (first == merged.events.end()) continue;
        std::int64_t count = 0;
        std::vector<FaultEvent> removed;
        for (auto e = first; e != merged.events.end(); ++e) {
            if (e->kind != fault || e->at_ms - first->at_ms > window_ms) continue;
            count += event_count(*e, option);
            if (e != first) removed.push_back(*e);
        }
        if (removed.empty()) continue;
        const bool capped = count > option.most;
        if (capped) count = option.most;
        *first = with_count(*first, option, count);
        done.push_back(fmt::format("{} ({}), merged into id {} with {} {}{}", event_ids(removed), fault, first->id,
                                   option.name, count, capped ? " (the topology's nodes)" : ""));
        std::erase_if(merged.events, [&](const FaultEvent& e) {
            return std::any_of(removed.begin(), removed.end(), [&](const FaultEvent& r) { return r.id == e.id; });
        });
        merged.removed.insert(merged.removed.end(), removed.begin(), removed.end());
    }
    if (done.empty()) return std::nullopt;
    merged.words = fmt::format("{}: {}", counted(static_cast<std::int64_t>(merged.removed.size()), "event"),
                               fmt::join(done, "; "));
    return merged;
}

}  // namespace lockcheck
