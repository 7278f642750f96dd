// Release ownership: did a release remove a lock that someone else held?
//
// A recipe whose release does not check the owner (redis-del-unsafe) reports
// what it removed as the release completion's value {"removed_owner": OWNER}.
// An ok release whose removed_owner differs from the release's own owner
// deleted another client's live lock (the server still had it, so its lease
// had not run out): a violation of kind "release-by-non-owner", which makes
// the run invalid. Its ops: the release's invoke and ok, and the ok of the
// acquire that took the removed lock when the history has it.
// Recipes that report nothing are never flagged. stats: releases_reporting_owner,
// releases_by_non_owner, and a one-line summary.
#pragma once

#include "checkers/checker_descriptor.hpp"
#include "core/history.hpp"

namespace lockcheck {

inline constexpr const char* kReleaseByNonOwner = "release-by-non-owner";

/// `partner` is pair_ops(history).
CheckerResult check_release_ownership(const History& history, const std::vector<std::int64_t>& partner);

/// The descriptor (checkers/checker_descriptor.hpp): judges lock histories.
const CheckerDescriptor& release_ownership_checker();

}  // namespace lockcheck
