// The protocol capabilities a worker announces in its hello ("supports",
// docs/protocol.md). One constant each, so the controller, the recipes and the
// checkers spell them the same way.
#pragma once

#include <string_view>

namespace lockcheck::capability {
/// acquire answers with a fencing token (monotonic per key).
inline constexpr std::string_view kFencing = "fencing";
/// The controller may send renew while the lock is held (a watchdog).
inline constexpr std::string_view kRenew = "renew";
/// The holder may enter the lock again with the same owner, releasing once per entry.
inline constexpr std::string_view kReentrant = "reentrant";
/// The worker performs the protected read/write itself, inside the lock's transaction.
inline constexpr std::string_view kResource = "resource";
/// The lock has no lease: it is held until released (acquires carry no ttl_ms).
inline constexpr std::string_view kNoLease = "no-lease";
/// The worker times the holder's work itself, on its own clock, when the
/// controller asks it to (spec hold_timed_by "client"): op hold, answered ok
/// after `value` ms of its clock, or fail "validity-ended" when the lock's
/// validity (as the client computed it at the grant) ran out first.
inline constexpr std::string_view kHold = "hold";
/// Not a lock: the stock-decrement workload (stock-init, decrement, stock-read).
inline constexpr std::string_view kStock = "stock";
/// Not a lock: the unique-id workload (generate-id), checked for duplicate ids.
inline constexpr std::string_view kUniqueIds = "unique-ids";
}  // namespace lockcheck::capability
