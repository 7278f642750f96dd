// The short summary printed at the end of a run or a check: the verdict in
// plain words, one line per checker, and an example of each kind of violation.
#pragma once

#include <string>
#include <string_view>

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

/// The violation of `result` (of `kind`, when not empty) that every summary
/// tells first, so the terminal and report.html's headline speak of the same
/// one: the longest overlap (`details.overlap_ms`), the first listed among
/// equals and for findings without a duration; nullptr when there is none.
const Violation* gravest_violation(const CheckerResult& result, std::string_view kind = {});

/// The whole summary, several lines, ending with a newline: the verdict, one
/// line per checker, and under it one example per kind of violation, the
/// gravest_violation first; then, when the run has the servers' own record,
/// one line saying what it decided or why it was not read.
std::string terminal_summary(const CheckReport& report);

}  // namespace lockcheck
