// Whether a run exercised what it claims to test (docs/checkers.md, "An
// honest VALID"). A history in which no acquire was ever granted, or in which
// the nemesis that was asked for never struck a target, proves nothing about
// the lock: no checker can find a violation in it, so its verdict is unknown,
// never valid. The rule is decided from the history (and, for the faults that
// were asked for, the run's spec), so checking a stored run again gives the
// same answer.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/history.hpp"

namespace lockcheck {

/// What the run was asked to exercise beyond what its history shows.
struct RunClaims {
    /// The faults the run's spec asked the nemesis for (spec.json's
    /// "nemesis"); nullopt when unknown (a bare history.jsonl), when the kinds
    /// that the history's start-fault ops name stand in for them.
    std::optional<std::vector<std::string>> faults;
};

/// What the history shows the run exercised, and, when it falls short, why.
struct Exercise {
    /// results.json's "exercised": for a lock history "acquire_attempts",
    /// "acquires_granted", "acquires_unknown" (info or unanswered),
    /// "acquires_refused" (fail held) and "acquires_failed" (any other fail);
    /// when a nemesis was asked for "faults_asked" (kinds), "faults_started"
    /// (start-fault invokes) and "faults_struck" (start-faults that hit at
    /// least one target); for a lock history "dangers", how often each
    /// danger came about (checkers/danger_counts.hpp: {kind name: count}).
    /// Empty object for a history with neither.
    nlohmann::json figures = nlohmann::json::object();
    /// One line, e.g. "no acquire was granted in 5091 attempts (5091
    /// unknown, 0 refused): see workers/worker-0.log" or "the nemesis never
    /// struck: the run says nothing about kill-restart"; empty when the run
    /// exercised what it claims.
    std::string shortfall;
};

/// Judges `history` (a history with client ops) against `claims`: a lock
/// history (checkers/lock_history.hpp) needs at least one acquire answered
/// ok; a run whose nemesis was asked for faults needs at least one
/// start-fault whose completion names a target (value.targets not empty, no
/// error). The first shortfall found is the reason.
Exercise judge_exercise(const History& history, const RunClaims& claims);

/// The faults that `spec` (a spec as JSON, e.g. spec.json) asks the nemesis
/// for; nullopt when it is not an object with a "nemesis" list of strings.
std::optional<std::vector<std::string>> faults_asked_by(const nlohmann::json& spec);

}  // namespace lockcheck
