// ZooKeeper's transaction log as a witness (issue 42; docs/checkers.md, "The
// servers' record"): what it decides of an overlap the history alone left
// undecided, from the history placed in the servers' order
// (checkers/zk_order.hpp). Pure.
//
// For the overlap of an earlier holder A and a later holder B, in this order:
//   (a) grant-without-own-key: A's or B's granted node had been removed (its
//       session expired or closed, or a delete) at or before the zxid of the
//       answer that decided its grant: the client took the lock after the
//       server had removed its place in the queue. The client's.
//   (b) grant-without-own-key: A's or B's granted node was created by
//       another session than the one the client reported holding at the
//       grant (a recipe that adopts a node its previous session left: it
//       vanishes when that session expires). The client's, or the recipe's.
//   (d) overlap-lease-expired: A's granted node was removed when its session
//       expired on the server, at or before B's grant zxid: the ensemble
//       ended A's lease before B got the lock, so A held past its lease.
//       Not in a run whose fault moved the servers' clocks: a leader whose
//       clock runs fast expires sessions that are still pinging.
// Anything else stays undecided.
#pragma once

#include <optional>
#include <string_view>

#include "checkers/witness_decision.hpp"
#include "checkers/zk_order.hpp"

namespace lockcheck {

/// The decision for the overlap of `first` (the earlier holder's owner) and
/// `second`, or nullopt when the log does not decide it.
std::optional<WitnessDecision> decide_zk_overlap(const ZkOrder& order, std::string_view first, std::string_view second);

}  // namespace lockcheck
