// Expired grant: did the client take a lock whose lease was already over?
//
// An acquire answered ok whose lease had certainly ended when the answer
// came, by the bounds of checkers/lease_bounds.hpp: the client's own
// valid_ms <= 0 (it says itself that nothing was left), or a slow-reply
// window that held the reply back so long that the grant's upper bound +
// ttl + 1 ms is at or before the ok. Answering an acquire ok tells the
// application it holds the lock (docs/protocol.md); a correct client counts
// the lease from the moment it asked and gives back a grant with nothing
// left (fail). So the violation stands on its own, whether or not the
// expired grant overlapped another holder (when it did, mutual-exclusion
// reports the overlap as late-grant too). Blame class "expired-grant"
// (checkers/overlap_blame.hpp): your client. An acquire answered fail or
// info is never flagged, however late; nor is an ok that reports no
// valid_ms outside a slow-reply window (the record cannot say when the
// server granted it: just before the answer leaves a whole lease).
// Its ops: the acquire's invoke and ok. stats: grants_ok, expired_grants,
// summary.
#pragma once

#include "checkers/checker_descriptor.hpp"
#include "core/history.hpp"

namespace lockcheck {

/// `partner` is pair_ops(history).
CheckerResult check_expired_grant(const History& history, const std::vector<std::int64_t>& partner);

/// The descriptor (checkers/checker_descriptor.hpp): judges lock histories
/// whose record can date a grant's lease (a client that reports valid_ms, or
/// a slow-reply fault with its reply_delay_ms).
const CheckerDescriptor& expired_grant_checker();

}  // namespace lockcheck
