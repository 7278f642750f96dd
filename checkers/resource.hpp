// Protected-resource checker (docs/design.md, "Checkers": resource).
//
// The controller owns one register per lock key. A holder reads it, then
// writes back the value it read plus one, each access passing its fencing
// token. The controller applies every access at the moment it records the
// access's completion, so the history's order of completions is the order in
// which the register changed. This checker replays them and reports:
//   - "lost-update": an accepted write whose writer's read is older than the
//     last accepted write (it overwrote updates it never saw); the first 20
//     overwritten writes are listed (details.overwritten) and all counted
//     (details.overwritten_total), so the evidence stays linear in the history;
//   - "stale-write-accepted": an accepted write with a token lower than one the
//     resource had already seen (what fencing rejects).
// Accesses rejected by fencing (fail with error "fenced") are counted, not violations.
//
// Accesses marked resource "worker" (the worker performed them inside the
// lock's transaction, capability "resource") are not replayed: their
// completion order is not the database's order. They are judged by value
// instead (checkers/worker_resource.hpp), and their figures are added to the
// totals and shown under stats.worker_owned.
#pragma once

#include "checkers/checker_descriptor.hpp"
#include "core/history.hpp"

namespace lockcheck {

inline constexpr const char* kLostUpdate = "lost-update";
inline constexpr const char* kStaleWriteAccepted = "stale-write-accepted";

/// `partner` is pair_ops(history).
CheckerResult check_resource(const History& history, const std::vector<std::int64_t>& partner);

/// The descriptor (checkers/checker_descriptor.hpp): judges lock histories.
const CheckerDescriptor& resource_checker();

}  // namespace lockcheck
