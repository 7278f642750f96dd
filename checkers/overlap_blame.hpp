// Whose fault an overlap is: the blame classes of the mutual-exclusion
// checker, one table (docs/checkers.md, "Whose fault an overlap is").
//
// Each class names the violation kind it reports, whose fault it is, the
// bound of checkers/lease_bounds.hpp it relies on, and the words the
// checker's summary uses. A class is given only when the record proves it;
// when it proves none, the overlap is "overlap-lease-uncertain", with both
// leases' bounds in its description. In the order they are tried:
//   late-grant             a holder acted on a grant whose own lease had
//                          certainly ended when the grant reached it: the
//                          client should have checked the grant's validity;
//   overlap-within-lease   both leases certainly valid at one instant: the
//                          server (or the recipe) broke its promise;
//   overlap-lease-expired  the earlier holder's lease had certainly ended
//                          before the later grant: every lease lock without
//                          fencing does this when its holder stalls;
//   overlap-lease-uncertain none of these is proved.
// Only with the servers' own record (checkers/server_witness.hpp), for an
// overlap the classes above left undecided:
//   grant-without-own-key  a holder was told it held the lock at a point of
//                          the servers' order where its own key was already
//                          gone (etcd-io/etcd#11456), or (ZooKeeper) on a
//                          node another session made: the client's;
//   and overlap-lease-expired, when the earlier holder's key had expired on
//                          the server before the later grant's revision;
//   renew-after-expiry     (no overlap class) a renew answered ok whose
//                          reply's revision came at or after its key's expiry
//                          on the server: the client's.
// renew-after-loss, in the same table, is found by its own check
// (checkers/renew_after_loss.hpp): a renew answered ok after another owner
// was granted the lock that this owner had certainly lost; so is
// expired-grant (checkers/expired_grant.hpp): an acquire answered ok whose
// lease had certainly ended when the answer came, overlap or none.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include "checkers/lock_sessions.hpp"

namespace lockcheck {

enum class Blame {
    LateGrant,
    WithinLease,
    LeaseExpired,
    Uncertain,
    RenewAfterLoss,
    GrantWithoutOwnKey,
    RenewAfterExpiry,
    ExpiredGrant
};

struct BlameClass {
    Blame blame;
    std::string_view kind;   ///< the violation kind it reports
    std::string_view whose;  ///< whose fault, in the words of the reports
    std::string_view bound;  ///< what the record must prove (docs/checkers.md says it at length)
    std::string_view words;  ///< in the checker's summary: "3 late grants"
    std::string_view stat;   ///< its count in the checker's stats
    /// Given only by the servers' record (checkers/server_witness.hpp), never
    /// by the history alone: the overlap sweep does not count it.
    bool needs_server_record = false;
};

inline constexpr const char* kOverlapWithinLease = "overlap-within-lease";
inline constexpr const char* kOverlapLeaseExpired = "overlap-lease-expired";
inline constexpr const char* kLateGrant = "late-grant";
inline constexpr const char* kOverlapLeaseUncertain = "overlap-lease-uncertain";
inline constexpr const char* kRenewAfterLoss = "renew-after-loss";
inline constexpr const char* kGrantWithoutOwnKey = "grant-without-own-key";
inline constexpr const char* kRenewAfterExpiry = "renew-after-expiry";
inline constexpr const char* kExpiredGrant = "expired-grant";

/// Every blame class, in the order an overlap is tried against them
/// (renew-after-loss, renew-after-expiry and expired-grant: no overlap
/// classes; grant-without-own-key and renew-after-expiry: only the servers'
/// record gives them).
inline constexpr std::size_t kBlameClasses = 8;
const std::array<BlameClass, kBlameClasses>& blame_classes();
/// The row of `blame`.
const BlameClass& blame_class(Blame blame);
/// Whether `c` classifies an overlap (renew-after-loss, renew-after-expiry and expired-grant do not).
bool is_overlap_class(const BlameClass& c);
/// Whether the overlap sweep counts overlaps of class `c` (in the
/// mutual-exclusion checker's stats from the history alone).
bool swept_overlap_class(const BlameClass& c);

/// What the record proves about one overlap.
struct OverlapBlame {
    Blame blame = Blame::Uncertain;
    /// For late-grant: whether the late holder is the later session (else the earlier).
    bool later_was_late = true;
    /// The earlier holder's lease as the later acquire saw it: certainly
    /// valid until, and certainly over by (ns; INT64_MAX without a lease).
    std::int64_t first_valid_until = 0;
    std::int64_t first_over_by = 0;
};

/// Classifies the overlap of `first` (the earlier start) and `second`.
OverlapBlame classify_overlap(const LockSession& first, const LockSession& second);

}  // namespace lockcheck
