// What `lockcheck shrink RUN_DIR` starts from: a failing run's resolved spec,
// the violation kind it must keep failing with, its recorded fault schedule
// and when its first violation happened. Everything that makes RUN_DIR no
// starting point is refused here, in one line (SpecError, exit 254).
#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "spec/spec.hpp"
#include "nemesis/schedule.hpp"

namespace lockcheck {

struct ShrinkInput {
    std::filesystem::path run_dir;  ///< canonical
    Spec spec;                      ///< RUN_DIR/spec.json
    std::string kind;               ///< the violation kind every kept candidate must show
    std::vector<FaultEvent> schedule;  ///< RUN_DIR/nemesis-schedule.json (or the spec's explicit schedule)
    std::optional<double> first_violation_seconds;  ///< when the history first became invalid
    /// Ids of the events whose fault the history records as started before
    /// the first violation: the only ones that can have caused it.
    std::set<int> started_before_violation;
};

/// The kind to keep among `kinds` (not empty): the first of `expected` (the
/// spec's expect.has) that occurs, else the first in name order.
std::string kind_to_keep(const std::set<std::string>& kinds, const std::vector<std::string>& expected);

/// Reads RUN_DIR. Throws SpecError ("shrink: ...") for a path that is no run
/// directory (no spec.json), one without history.jsonl or results.json, one
/// whose results.json does not read (reports/results_json.hpp), a run that did not fail (its verdict is not invalid, or no violation is listed)
/// and one without a fault schedule.
ShrinkInput read_shrink_input(const std::filesystem::path& run_dir);

}  // namespace lockcheck
