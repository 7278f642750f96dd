// Which timelines of report.html draw their lanes aggregated: with many keys
// and many workers (1M ops, 50 keys x 200 workers: 10,000 lanes) a lane per
// worker per key is what slows the page down most (docs/benchmarks.md). Beyond
// ReportLimits::max_lanes lanes over all keys, a key keeps a lane of its own
// only for the workers a violation marked on it cites (its evidence); every
// other worker's bars and ticks share one lane. The page draws every lane of
// a key when asked.
#pragma once

#include <cstddef>
#include <vector>

#include "reports/timeline_model.hpp"
#include "reports/violation_marks.hpp"

namespace lockcheck {

/// Sets `aggregated` and `own_lanes` of each key when the keys have more than
/// `max_lanes` worker lanes in all; a key is aggregated only when that draws
/// fewer lanes (its own lanes plus the shared one) than it has workers.
/// `violations` are the marked ones: advisory marks are never drawn on a
/// timeline and give no lane; a mark that names no key gives its workers a
/// lane in every key they used. Returns how many keys it aggregated.
std::size_t aggregate_lanes(std::vector<KeyTimeline>& keys, const std::vector<ViolationMark>& violations,
                            std::size_t max_lanes);

}  // namespace lockcheck
