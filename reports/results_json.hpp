// results.json: the verdict and every checker's findings, for machines.
//
//   {"valid": true|false|"unknown", "unknown_reason": "..." (only when set),
//    "exercised": {"acquire_attempts", "acquires_granted", ..., "faults_asked", "faults_struck", ...}
//                 (only when the history has acquires or faults; checkers/exercise.hpp),
//    "checkers": {"<name>": {"valid": ..., "violations": [{"kind", "ops", "description", "details"}],
//                            "violations_total": N, "stats": {...}}},
//    ... plus whatever the caller adds (run, expectation)}
#pragma once

#include <cstddef>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "checkers/run_checkers.hpp"

namespace lockcheck {

/// At most this many violations per checker are listed; violations_total counts all.
inline constexpr std::size_t kMaxListedViolations = 1000;

nlohmann::json results_to_json(const CheckReport& report);
/// Writes JSON to `path` atomically, as write_text_file does.
void write_json_file(const std::filesystem::path& path, const nlohmann::json& json);
/// The JSON in `path`, or null when the file is missing, not a regular file
/// (core/regular_file.hpp), not valid JSON or
/// nested deeper than kMaxJsonDepth (core/json_text.hpp).
nlohmann::json read_json_or_null(const std::filesystem::path& path);

}  // namespace lockcheck
