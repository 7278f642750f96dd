// The grid of `lockcheck compare`: --vary FIELD=V1,V2,... options, expanded
// into cells, each a spec with those fields set. Works on any spec field
// through the spec's JSON form, so new fields need no code here.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "spec/spec.hpp"

namespace lockcheck {

struct Vary {
    std::string field;
    std::vector<nlohmann::json> values;  ///< each parsed as JSON when it is JSON (0, true, [1,2]), else a string
};

/// Parses "FIELD=V1,V2,..." (commas inside [...], {...} or a JSON string "..." do not split).
/// Throws SpecError naming the option when it has no '=' or no value.
Vary parse_vary(const std::string& option);

/// The most runs one compare may ask for (cells x --runs): ten thousand runs
/// of a second already take three hours; a larger grid is a typo, and its
/// specs, results and report alone would take gigabytes.
inline constexpr std::size_t kMaxGridRuns = 10'000;

/// Throws SpecError, one line with the grid's size, when `varies` x `runs`
/// asks for more than kMaxGridRuns runs (before a cell is built).
void check_grid_size(const std::vector<Vary>& varies, int runs);

struct GridCell {
    std::vector<std::pair<std::string, nlohmann::json>> settings;  ///< field, value, in --vary order
    Spec spec;
    /// "field=value field2=value2", a multiple of the lease with its value in ms:
    /// "restart_delay_ms=2xttl (2000 ms)".
    std::string label() const;
};

/// Every combination of the values, the first --vary varying slowest. Each
/// cell's spec is `base` with the fields set, parsed and validated like a
/// spec file (fault_duration_ms keeps its default unless `base` set it).
/// Throws SpecError for a field or value the spec does not accept, and for a
/// field varied twice.
std::vector<GridCell> expand_grid(const Spec& base, const std::vector<Vary>& varies);

}  // namespace lockcheck
