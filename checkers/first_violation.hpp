// When a history first became invalid: the op whose recording made the
// checkers' verdict invalid. For `lockcheck suite`'s time to the first
// violation (commands/suite/detection_rate.hpp).
#pragma once

#include <cstdint>
#include <optional>

#include "core/history.hpp"

namespace lockcheck {

struct FirstViolation {
    std::int64_t op = 0;  ///< index of the op that ends the shortest invalid prefix
    double seconds = 0;   ///< its time, in seconds since the run started
};

/// The shortest prefix of `history` that run_checkers judges invalid, found
/// by bisection: a violation in a prefix stays one in every longer prefix
/// (ops are only added after it; an op still in flight at the end of a prefix
/// may or may not have taken effect), so the prefixes' verdicts change from
/// not invalid to invalid once. Nullopt when the whole history is not
/// invalid. Runs the checkers about log2(size) times. Throws HistoryError as
/// run_checkers does.
std::optional<FirstViolation> first_violation(const History& history);

}  // namespace lockcheck
