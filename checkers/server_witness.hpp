// The servers' own record as a witness (issue 42; docs/checkers.md, "The
// servers' record"): what it decides of the overlaps the history alone left
// undecided (overlap-lease-uncertain). Pure: the history, the record and
// the checkers' report in, the report re-decided out.
//
// For an undecided overlap of an earlier holder A and a later holder B (etcd,
// checkers/etcd_order.hpp):
//   (a) grant-without-own-key: A's or B's own key was deleted at or before
//       the revision of the read that decided its grant: the client was told
//       it held the lock after the server had removed its place in the
//       queue (etcd-io/etcd#11456). The client's.
//   (d) overlap-lease-expired: A's key expired on the server (no client
//       deleted it) at or before B's grant revision: the server ended A's
//       lease before B got the lock, so A held past its lease.
//   (c) renew-after-expiry (no overlap): a renew answered ok whose reply's
//       revision came at or after its key's expiry on the server: the
//       client reported a lease the server had ended. Added to the
//       renew-after-loss checker's findings (its verdict becomes invalid).
// ZooKeeper's transaction log decides (a), (b) a grant on another session's
// node, and (d) by checkers/zk_witness.hpp; it has no renews.
// Anything else stays undecided. Each re-decided violation keeps its ops and
// says the servers' order in its description and details ("server_order").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checkers/etcd_order.hpp"
#include "checkers/overlap_blame.hpp"
#include "checkers/run_checkers.hpp"
#include "checkers/server_record.hpp"
#include "checkers/witness_decision.hpp"

namespace lockcheck {

/// The decision for the overlap of `first` (the earlier holder's owner) and
/// `second`, or nullopt when the record does not decide it.
std::optional<WitnessDecision> decide_overlap(const EtcdOrder& order, std::string_view first, std::string_view second);

/// Re-decides the undecided overlaps of `report`'s mutual-exclusion result
/// with `record` and sets report.witness (results.json's "witness"): the
/// server, whether it was read (else why), its size, what reading it cost,
/// and how many undecided overlaps it decided, per class. No record: the
/// report is left as it is.
void apply_server_witness(const History& history, const std::vector<std::int64_t>& partner, const ServerRecord* record,
                          CheckReport& report);

}  // namespace lockcheck
