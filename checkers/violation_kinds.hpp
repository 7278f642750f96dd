// Every kind of violation a checker can report, in one list: what a spec's
// `expect` may name in `has` and `lacks` (spec/spec.cpp refuses any other
// word, so that a typo cannot make an expectation pass). A checker that gains
// a kind adds its constant to the list in checkers/violation_kinds.cpp.
#pragma once

#include <span>
#include <string_view>

namespace lockcheck {

/// The known kinds, in the order of the checkers' report (docs/checkers.md).
std::span<const std::string_view> violation_kinds();

/// Whether `kind` is one of violation_kinds().
bool is_violation_kind(std::string_view kind);

}  // namespace lockcheck
