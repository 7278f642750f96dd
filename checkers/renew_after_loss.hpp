// Renew after loss: did a renew succeed for a lock its owner had lost?
//
// A renew answered ok for owner A although another owner B was granted the
// same key after A's lease had certainly ended and before A's renew was
// invoked is a client (or recipe) bug: a refresh that re-creates a key it
// lost, or extends one without checking whose it is. Blame class
// "renew-after-loss" (checkers/overlap_blame.hpp); the bounds are those of
// checkers/lease_bounds.hpp: A's lease had certainly ended by
// LockSession::possibly_valid_until counted over A's terms invoked before the
// renew, B's acquire was invoked after that and certainly granted (its upper
// bound) before the renew's invoke. B may have released in between: a
// correct renew must still fail. Its ops: A's acquire ok, B's acquire invoke
// and ok, A's renew invoke and ok. stats: renews_ok, renews_after_loss.
#pragma once

#include "checkers/checker_descriptor.hpp"
#include "core/history.hpp"

namespace lockcheck {

/// `partner` is pair_ops(history).
CheckerResult check_renew_after_loss(const History& history, const std::vector<std::int64_t>& partner);

/// The descriptor (checkers/checker_descriptor.hpp): judges lock histories.
const CheckerDescriptor& renew_after_loss_checker();

}  // namespace lockcheck
