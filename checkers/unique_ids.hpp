// Unique-ids checker for id-generator histories (capability "unique-ids",
// workers/unique_ids_workload.hpp). Per key:
//   - issued ids: the {"id": N} of every generate-id that completed ok;
//   - "duplicate-id": an id issued twice. The finding names both ok
//     completions (history indices), their workers and times; an id issued
//     a third time is reported against its first issue again.
// A generate-id that completed info, or never completed, may have consumed
// an id nobody learned, and one that failed issued none: neither takes part.
// Ids of different keys are never compared: each key is its own sequence.
// The verdict is unknown when no id was issued at all, or when an ok
// completion carries no integer id (a duplicate could hide there).
#pragma once

#include "checkers/checker_descriptor.hpp"
#include "core/history.hpp"

namespace lockcheck {

inline constexpr const char* kDuplicateId = "duplicate-id";

/// True when the history holds generate-id ops.
bool history_has_ids(const History& history);

/// `partner` is pair_ops(history). Every duplicate is counted
/// (stats.duplicates); the first 100 found are listed as violations, the
/// rest counted in unlisted_violations.
CheckerResult check_unique_ids(const History& history, const std::vector<std::int64_t>& partner);

/// The descriptor (checkers/checker_descriptor.hpp): judges id histories (history_has_ids).
const CheckerDescriptor& unique_ids_checker();

}  // namespace lockcheck
