// The common kinds of option (core/option_descriptor.hpp): integers,
// booleans, choices among words, and times that may be a multiple of the
// lease. Each gives its form and bounds in the words the spec's errors use.
// A descriptor may add its own check to one of these (e.g. clock_skew_nodes:
// an integer >= 1 that must also be 1 or 2).
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/option_descriptor.hpp"
#include "core/ttl_time.hpp"

namespace lockcheck {

/// A JSON integer in [min, max]: "must be an integer in [min, max]", or
/// "must be an integer >= min" when max is the largest std::int64_t.
/// `default_value`: an integer, or null for none.
OptionDescriptor integer_option(std::string name, std::string description, nlohmann::json default_value,
                                std::int64_t min, std::int64_t max = std::numeric_limits<std::int64_t>::max());

/// A JSON number (integer or not) in [min, max]: "must be a number in [min, max]".
OptionDescriptor number_option(std::string name, std::string description, double default_value, double min,
                               double max);

/// true or false: "must be true or false".
OptionDescriptor boolean_option(std::string name, std::string description, bool default_value);

/// A string ("must be a string") that must be one of `choices`: "must be a, b or c".
OptionDescriptor choice_option(std::string name, std::string description, std::string default_value,
                               std::vector<std::string> choices);

/// A time (core/ttl_time.hpp): an integer of ms (>= 0 unless `negative_ms`)
/// or "Nxttl" with a finite N in [0, kMaxTtlFactor], stored as given and
/// resolved to ms against the run's ttl_ms for the factory.
/// `resolved_problem`: why a resolved time is out of bounds, or nullopt.
OptionDescriptor ttl_time_option(std::string name, std::string description, TtlTime default_value, bool negative_ms,
                                 std::function<OptionProblem(std::int64_t resolved_ms)> resolved_problem);

/// `option` with one more bound: a value `within` refuses (it gets values
/// option.read accepted) is refused with `problem` ("must be 1 or 2").
OptionDescriptor with_bound(OptionDescriptor option, std::function<bool(const nlohmann::json& value)> within,
                            std::string problem);

/// `choices` as words of a sentence: "a, b or c".
std::string choice_list(const std::vector<std::string>& choices);

}  // namespace lockcheck
