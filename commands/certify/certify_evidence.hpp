// Evidence per certify cell (docs/certify.md, "Evidence"): how often a cell's
// danger (CellEvidence, commands/certify/certify_battery.hpp) came about in
// its runs, counted from each run's results.json ("exercised"."dangers",
// checkers/danger_counts.hpp); whether the cell runs again; and the verdict
// it leaves: a cell that met its expectation but saw its danger fewer times
// than needed is "not exercised", never met. Pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands/certify/certify_battery.hpp"
#include "commands/certify/certify_card.hpp"

namespace lockcheck {

/// How often `cell`'s danger must come about: 0 for a cell that needs none,
/// else `override` (certify --evidence N) or the cell's own.
int evidence_needed(const CertifyCell& cell, std::optional<int> override);

/// The sum of `cell`'s danger counts in one run's results.json; 0 when the
/// results carry none (a run that wrote none, a history that is no lock's).
std::int64_t danger_seen(const CertifyCell& cell, const nlohmann::json& results);

/// Why `cell` cannot come about with the client of a run whose results.json
/// is `results`: every danger count of the cell is a lease running out
/// (DangerKind::needs_lease) and the run's acquires asked for no lease
/// (capability no-lease: "exercised"."acquires_asking_lease" 0 of some).
/// "" when it can, or when the results do not say.
std::string danger_impossible_without_lease(const CertifyCell& cell, const nlohmann::json& results);
/// Whether `cell` runs again after `runs`: always below `repeat` runs; then
/// while its danger was seen fewer than `needed` times, within its budget
/// (CellEvidence::max_runs runs), unless the last run already broke the
/// cell's expectation or failed (more runs cannot make it met).
bool wants_another_run(const CertifyCell& cell, const std::vector<CellRun>& runs, int repeat, int needed,
                       std::int64_t seen);

/// The run header's words for run `r` (0-based): "", " run 2/3", " run 2 (danger seen 1 of 3)".
std::string run_words(int r, int repeat, int needed, std::int64_t seen);

/// Records the evidence on a judged cell; a cell judged met that saw its
/// danger fewer than `needed` times becomes NotExercised, saying so.
void apply_evidence(CellResult& result, const CertifyCell& cell, int needed, std::int64_t seen);

/// ", danger seen M of N" for a cell that needs one, else "".
std::string evidence_words(const CellResult& result);

}  // namespace lockcheck
