// A checker as the rest of lockcheck sees it: its name, which histories it
// judges, how it runs, and how its result reads in one line. Each checker
// declares its descriptor in its own header (e.g. checkers/mutual_exclusion.hpp:
// mutual_exclusion_checker()) and defines it next to its check; the registry
// (checkers/checker_registry.cpp) lists them with one line each, and
// run_checkers and the reports ask the registry.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "checkers/checker_result.hpp"
#include "core/history.hpp"

namespace lockcheck {

struct CheckerDescriptor {
    std::string_view name;         ///< as in results.json (a checker_name:: constant)
    std::string_view description;  ///< one line
    /// Whether it judges `history`, from the ops the history holds (a stored
    /// history is checked without knowing the workers' capabilities).
    bool (*applies)(const History& history);
    /// The check itself; `partner` is pair_ops(history).
    CheckerResult (*run)(const History& history, const std::vector<std::int64_t>& partner);
    /// The one-line summary of a result it produced, for the terminal, junit.xml and report.html.
    std::string (*summary)(const CheckerResult& result);
    /// The run's verdict in plain words when this checker leads the report
    /// and the run is valid (e.g. "no two clients held one lock at once, and
    /// no update was lost"), or when it found violations; empty for none.
    std::string_view valid_headline = {};
    std::string_view invalid_headline = {};
};

/// For a descriptor that applies to every history.
bool applies_always(const History& history);

/// The summary a checker without its own wording gets: stats.summary when it
/// is a string, else "N violations".
std::string stats_summary(const CheckerResult& result);

/// The integer stat `name` of `result` (0 when absent or not an integer).
std::int64_t stat_integer(const CheckerResult& result, std::string_view name);
/// The number at `path` inside `stats` (0 when absent or not a number).
double stat_number(const nlohmann::json& stats, std::initializer_list<std::string_view> path);

}  // namespace lockcheck
