// The names of the checkers, as they appear in results.json ("checkers") and
// in the reports. One constant each, so checkers and reports agree.
#pragma once

#include <string_view>

namespace lockcheck::checker_name {
inline constexpr std::string_view kMutualExclusion = "mutual-exclusion";
inline constexpr std::string_view kLinearizability = "linearizability";
inline constexpr std::string_view kReleaseOwnership = "release-ownership";
inline constexpr std::string_view kRenewAfterLoss = "renew-after-loss";
inline constexpr std::string_view kExpiredGrant = "expired-grant";
inline constexpr std::string_view kResource = "resource";
inline constexpr std::string_view kLiveness = "liveness";
inline constexpr std::string_view kOversell = "oversell";
inline constexpr std::string_view kUniqueIds = "unique-ids";
}  // namespace lockcheck::checker_name
