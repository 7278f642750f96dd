// The search of `lockcheck shrink`: from the shape of a failing run (its
// fault events, workers, keys and time limit) to the smallest shape that
// still fails, step by step: the events started before the first violation,
// events of one fault merged into one event (commands/shrink/shrink_merge.hpp),
// delta debugging over the events (commands/shrink/ddmin.hpp), the merge again when
// the first was refused, fewer workers, fewer keys, fewer targets per event
// (a merged event's count), then a time limit just past the first
// violation. Each candidate is tried by a callback (runs R times,
// commands/shrink/shrink_trial.hpp), so the search itself runs no process.
#pragma once

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "commands/shrink/shrink_merge.hpp"
#include "nemesis/schedule.hpp"

namespace lockcheck {

/// What the search shrinks.
struct ShrinkShape {
    std::vector<FaultEvent> events;
    int workers = 1;
    int keys = 1;
    double time_limit_s = 1;
};

/// What a tried candidate showed: whether it is kept, and when the runs that
/// reproduced first failed (seconds since their start).
struct TrialVerdict {
    bool kept = false;
    std::vector<double> first_violation_seconds;
};

/// Tries `shape`; `step` names the step ("events", "workers", ...) and
/// `removed` says what it removed, for the progress line and shrink.json.
/// nullopt: the search must stop (budget spent, Ctrl-C).
using TryShape = std::function<std::optional<TrialVerdict>(const ShrinkShape& shape, const std::string& step,
                                                           const std::string& removed)>;

struct SearchStart {
    ShrinkShape shape;                            ///< the failing run's
    std::set<int> started_before_violation;       ///< event ids (ShrinkInput)
    std::vector<double> first_violation_seconds;  ///< the failing run's (empty when unknown)
    CountOptions count_options = {};              ///< the faults whose events the merge step joins
    std::int64_t merge_window_ms = 0;             ///< one hold: how far apart the events it joins may start
};

struct SearchResult {
    ShrinkShape best;
    bool stopped = false;  ///< the callback asked to stop: `best` is the best so far
};

/// The time limit "just past" the first violations seen: the latest of them
/// x 1.25 + 1 s, rounded up to whole seconds.
double time_limit_past(const std::vector<double>& first_violation_seconds);

/// Runs the steps in order; a step whose candidate is not kept leaves the
/// shape as it was. The merge step ("merge") tries one candidate when
/// merge_events (count_options, merge_window_ms) finds two or more events of
/// a fault to join: before delta debugging, and after it unless the first
/// merge was kept (or its candidate would be the same as before). Workers
/// and keys go down one at a time, to 1, until a candidate is not kept;
/// then each event's count ("targets per event") the same way: after the
/// workers, since more racing workers make a failure with fewer crashes
/// likelier (a split first grant), and a lucky R - 1 of R would keep such
/// a count.
SearchResult shrink_search(const SearchStart& start, const TryShape& try_shape);

/// "ids 2, 5, 7-9" / "id 3" of `events` (runs of consecutive ids as a range).
std::string event_ids(const std::vector<FaultEvent>& events);

}  // namespace lockcheck
