// Where report.html marks each finding: the moment it happened and the exact
// stretches of the workers' lanes it concerns (an overlap: the interval both
// held the lock; a lost update or stale write: the write itself).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "checkers/checker_result.hpp"
#include "core/history.hpp"

namespace lockcheck {

/// How a finding is drawn.
enum class MarkShape {
    Overlap,  ///< two holders at once: a band on both lanes over the overlap
    Write,    ///< a lost update or an accepted stale write: the write on the writer's lane
    Other,    ///< anything else: the cited ops on their workers' lanes
};

std::string_view to_string(MarkShape shape);

/// A stretch of one worker's lane.
struct LaneSpan {
    int process = 0;
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;
};

struct ViolationMark {
    std::string checker;
    std::string kind;
    std::string description;
    std::vector<std::int64_t> ops;
    std::string key;             ///< "" when the violation names none
    std::vector<int> processes;  ///< the workers whose ops it cites
    MarkShape shape = MarkShape::Other;
    std::int64_t at_ns = 0;  ///< when it happened: an overlap's start, a write's completion, else the last cited op
    std::vector<LaneSpan> spans;  ///< what is highlighted
    std::int64_t start_ns = 0;    ///< everything the finding cites (what zooming to it shows)
    std::int64_t end_ns = 0;
    std::vector<std::int64_t> faults;  ///< ids of faults in effect at some point of the highlighted spans
    bool advisory = false;             ///< from a checker that does not count toward the verdict
};

/// The mark of `v`, found by `checker`. `partner` pairs invokes and
/// completions (pair_ops); `end_ns` closes an overlap still open at the end.
ViolationMark mark_violation(const History& history, const std::vector<std::int64_t>& partner,
                             const CheckerResult& checker, const Violation& v, std::int64_t end_ns);

}  // namespace lockcheck
