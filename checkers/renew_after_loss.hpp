// Renew after loss: did a renew succeed for a lock its owner had lost?
//
// A renew of owner A answered ok, and another owner B granted the same key
// where, in every world in which the server kept its promise, the renew took
// effect after B's grant: a client (or recipe) bug, a refresh that re-creates
// a key it lost or extends one without checking whose it is. Blame class
// "renew-after-loss" (checkers/overlap_blame.hpp); the bounds are those of
// checkers/lease_bounds.hpp. Two shapes meet the rule:
// - the renew was sent after A's lease had certainly ended and B had been
//   granted (B may have released in between: a correct renew must still fail);
// - the renew was in flight across B's grant: sent before it, answered after
//   it, and B was granted before the renewed lease could have run out even had
//   the renew taken effect the moment it was sent (B's grant upper bound <
//   the renew's invoke + ttl - 1 ms) and before A's release was invoked, after
//   A's lease could have ended. Took
//   the renew effect first, the server granted within the renewed lease;
//   after, the renew revived a lost lock: a violation in every world, and
//   with a correct server the client's. When A's worker was stopped by a
//   pause fault as the renew was sent (checkers/worker_stops.hpp), the renew
//   took effect no earlier than its resume; a resume after B's grant makes
//   the revival certain, and the description says so.
// A renew answered fail or info is never flagged. Its ops: A's acquire ok,
// B's acquire invoke and ok, A's renew invoke and ok. stats: renews_ok,
// renews_after_loss, renews_across_grant (renews of any answer in flight
// when another process's acquire of the key was invoked and granted: how
// often the moment this rule needs came about).
#pragma once

#include "checkers/checker_descriptor.hpp"
#include "checkers/lock_sessions.hpp"
#include "core/history.hpp"

namespace lockcheck {

/// `partner` is pair_ops(history).
CheckerResult check_renew_after_loss(const History& history, const std::vector<std::int64_t>& partner);

/// Its stats.summary: "N of M renews answered ok revived a lock already lost".
std::string renew_after_loss_summary(std::size_t found, std::int64_t renews_ok);

/// stats renews_across_grant: renews of any answer in flight when another
/// process's acquire of the same key was invoked and then granted. `sessions`
/// is extract_sessions(history, partner).
std::size_t count_renews_across_grant(const History& history, const std::vector<std::int64_t>& partner,
                                      const std::vector<LockSession>& sessions);

/// The descriptor (checkers/checker_descriptor.hpp): judges lock histories.
const CheckerDescriptor& renew_after_loss_checker();

}  // namespace lockcheck
