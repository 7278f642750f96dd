// The short summary printed at the end of a run or a check: the verdict in
// plain words, one line per checker, and an example of each kind of violation.
#pragma once

#include <string>

#include "checkers/run_checkers.hpp"

namespace lockcheck {

/// One line per checker from its stats, e.g. "7 overlaps (0 within lease, 7 after the lease expired)".
std::string checker_summary(const CheckerResult& result);

/// The verdict in plain words, e.g. "INVALID: two clients held the same lock at once".
std::string verdict_sentence(const CheckReport& report);

/// The whole summary, several lines, ending with a newline.
std::string terminal_summary(const CheckReport& report);

}  // namespace lockcheck
