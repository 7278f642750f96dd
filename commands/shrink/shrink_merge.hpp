// The merge step of `lockcheck shrink` (commands/shrink/shrink_search.hpp): several
// events of a fault that can strike several targets in one event (its
// descriptor names a count option, FaultDescriptor::count_option, e.g.
// kill-restart's kill_restart_nodes) tried as one event that strikes them
// all at once. Delta debugging only drops events; a failure that needs
// several crashes within one hold keeps them all, spread in time, and
// reproduces only when they happen to fall within one hold. One event with
// their count strikes them at one moment. Tried before delta debugging (one
// reliable event lets ddmin drop every other event in a few halvings) and,
// when that candidate is refused, after it.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "nemesis/schedule.hpp"

namespace lockcheck {

/// A fault's count option, the count of its events that do not set it (the
/// spec's value of the option), and the most one event can strike (the
/// topology's nodes: a merged count above it kills no more).
struct CountOption {
    std::string name;
    std::int64_t unset = 1;
    std::int64_t most = std::numeric_limits<std::int64_t>::max();
};

/// By fault name: the faults whose events may be merged.
using CountOptions = std::map<std::string, CountOption>;

/// Every fault of the registry that declares a count option, the count of
/// an event without its own taken from `fault_options` (a spec's resolved
/// fault options; the option's default where absent), at most `most_targets`
/// (the spec's nodes).
CountOptions count_options_of(const nlohmann::json& fault_options,
                              std::int64_t most_targets = std::numeric_limits<std::int64_t>::max());

/// How many targets `event` strikes: its own count option, else option.unset.
std::int64_t event_count(const FaultEvent& event, const CountOption& option);

/// `event` with its count option set to `count`.
FaultEvent with_count(FaultEvent event, const CountOption& option, std::int64_t count);

struct MergedEvents {
    std::vector<FaultEvent> events;   ///< the list with the merged events replaced
    std::vector<FaultEvent> removed;  ///< the events merged into another
    std::string words;                ///< what was done, for the progress line and shrink.json
};

/// For each fault of `count_options`: its first event in `events` and the
/// fault's events that start at most `window_ms` after it (one hold: crashes
/// that strike the same holder's lock), replaced by the first (its id,
/// time, duration, pick, trigger and options) with the count option set to
/// their counts added up (an event's own option, else CountOption::unset),
/// at most CountOption::most.
/// The candidate is tried like any other, and one that no longer fails is
/// not kept. nullopt when no fault has two events within the window.
std::optional<MergedEvents> merge_events(const std::vector<FaultEvent>& events, const CountOptions& count_options,
                                         std::int64_t window_ms);

}  // namespace lockcheck
