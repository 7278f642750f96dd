// The short summary printed at the end of a run or a check: the verdict in
// plain words, one line per checker, and an example of each kind of violation.
#pragma once

#include <string>

#include "checkers/run_checkers.hpp"

namespace lockcheck {

/// The checker's one-line summary, as its descriptor words it
/// (CheckerDescriptor::summary), e.g. "7 overlaps (0 within lease, 7 after
/// the lease expired) in 40 lock sessions".
std::string checker_summary(const CheckerResult& result);

/// The verdict in plain words, e.g. "INVALID: two clients held the same lock
/// at the same time": the headline of the first checker in the report that
/// has one for this verdict (CheckerDescriptor::valid_headline /
/// invalid_headline), else a sentence naming the first invalid checker.
std::string verdict_sentence(const CheckReport& report);

/// The whole summary, several lines, ending with a newline.
std::string terminal_summary(const CheckReport& report);

}  // namespace lockcheck
