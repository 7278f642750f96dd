#include "checkers/overlap_blame.hpp"

#include <algorithm>
#include <limits>

namespace lockcheck {

const std::array<BlameClass, kBlameClasses>& blame_classes() {
    static constexpr std::array<BlameClass, kBlameClasses> kClasses{{
        {Blame::LateGrant, kLateGrant, "your client: it used a grant whose lease had already ended",
         "the late holder's lease had certainly ended when its grant arrived: grant upper bound + ttl + 1 ms "
         "(or its ok + valid_ms) is at or before its ok",
         "late grant", "late_grant"},
        {Blame::WithinLease, kOverlapWithinLease, "the lock service or the recipe: it broke its promise",
         "both leases certainly valid at one instant: the later grant happened by its upper bound, before "
         "either lease's certain end (invoke + ttl - 1 ms)",
         "within lease", "within_lease"},
        {Blame::LeaseExpired, kOverlapLeaseExpired, "inherent to lease locks: add fencing",
         "the earlier holder's lease had certainly ended before the later acquire was invoked: its last "
         "possible end (grant upper bound + ttl + 1 ms, through every renew that may have taken effect)",
         "after the lease expired", "lease_expired"},
        {Blame::Uncertain, kOverlapLeaseUncertain, "undecided: the record does not say whose",
         "none of the above is proved; the description gives both leases' bounds", "undecided", "lease_uncertain"},
        {Blame::RenewAfterLoss, kRenewAfterLoss, "your client: its renew revived a lock it had lost",
         "a renew answered ok whose effect came after another owner's grant in every world where the server kept "
         "its promise: that grant came after this owner's lease could have ended (its earliest end) and before the "
         "renew's latest effect (its upper bound), and before the renew's earliest effect (its invoke, or its "
         "worker's resume from a pause) + ttl - 1 ms",
         "renew after loss", "renew_after_loss"},
        {Blame::GrantWithoutOwnKey, kGrantWithoutOwnKey,
         "your client: it took the lock after the server had removed its own key",
         "the servers' record: the holder's own key (its place in the lock's queue) was deleted at or before the "
         "revision of the read that decided its grant (the grant_revision its acquire reported); ZooKeeper: its "
         "granted node was removed at or before its grant_zxid, or was made by another session than its own",
         "grant without own key", "grant_without_own_key", true},
        {Blame::RenewAfterExpiry, kRenewAfterExpiry,
         "your client: its renew answered ok after the server had ended its lease",
         "the servers' record: the owner's key expired on the server (no client reported deleting it) at a "
         "revision at or before the one the renew's ok reported (the keep-alive reply's header revision)",
         "renew after expiry", "renew_after_expiry", true},
        {Blame::ExpiredGrant, kExpiredGrant, "your client: it took a grant whose lease had already ended",
         "an acquire answered ok whose lease had certainly ended by its ok, overlap or none: the client's own "
         "valid_ms <= 0, or a reply held back so long that grant upper bound + ttl + 1 ms is at or before the ok",
         "expired grant", "expired_grants"},
    }};
    return kClasses;
}

const BlameClass& blame_class(Blame blame) {
    const auto& classes = blame_classes();
    return *std::find_if(classes.begin(), classes.end(), [&](const BlameClass& c) { return c.blame == blame; });
}

bool is_overlap_class(const BlameClass& c) {
    return c.blame != Blame::RenewAfterLoss && c.blame != Blame::RenewAfterExpiry && c.blame != Blame::ExpiredGrant;
}

bool swept_overlap_class(const BlameClass& c) { return is_overlap_class(c) && !c.needs_server_record; }

namespace {

/// Whether, wherever in their windows the grants happened, some instant lay
/// within both leases: with the earlier term granted at g1 in [I1, H1] for
/// L1 and the later grant at g2 in [I2, H2] for L2, the instant max(g1, g2)
/// is before g1 + L1 - 1 ms and g2 + L2 - 1 ms in every case exactly when
/// H2 - I1 < L1 - 1 ms and H1 - I2 < L2 - 1 ms (a side without a lease has
/// no end). Only the earlier holder's terms answered ok and invoked before
/// the later grant arrived count (each alone): a renew after it is judged
/// by renew-after-loss.
bool both_certainly_valid(const LockSession& first, const LockSession& second) {
    const LeaseTerm* later = second.ttl_ms && !second.lease_terms.empty() ? &second.lease_terms.front() : nullptr;
    const std::int64_t later_from = later ? later->invoke_ns : second.start_ns;
    const std::int64_t later_by = later ? later->grant_hi_ns : second.start_ns;
    const auto within_later = [&](std::int64_t earlier_by) {
        return !later || earlier_by - later_from < later->lease_ns - kLeaseGranularityNs;
    };
    if (!first.ttl_ms) return within_later(first.start_ns);
    return std::any_of(first.lease_terms.begin(), first.lease_terms.end(), [&](const LeaseTerm& term) {
        return term.definite && term.invoke_ns < second.start_ns &&
               later_by - term.invoke_ns < term.lease_ns - kLeaseGranularityNs && within_later(term.grant_hi_ns);
    });
}

}  // namespace

OverlapBlame classify_overlap(const LockSession& first, const LockSession& second) {
    OverlapBlame out;
    const LeaseTerm* second_grant =
        second.ttl_ms && !second.lease_terms.empty() ? &second.lease_terms.front() : nullptr;
    const std::int64_t second_invoke = second_grant ? second_grant->invoke_ns : second.start_ns;
    out.first_valid_until = first.certainly_valid_until(second.start_ns);
    out.first_over_by = first.possibly_valid_until(second.start_ns);
    if (second.late_grant() || first.late_grant()) {
        out.blame = Blame::LateGrant;
        out.later_was_late = second.late_grant();
        return out;
    }
    if (both_certainly_valid(first, second)) {
        out.blame = Blame::WithinLease;
        return out;
    }
    // Counting every term of the earlier holder that may have taken effect by
    // the later grant: one invoked after the later acquire cannot end the
    // earlier lease before that acquire.
    if (out.first_over_by <= second_invoke) {
        out.blame = Blame::LeaseExpired;
        return out;
    }
    out.blame = Blame::Uncertain;
    return out;
}

}  // namespace lockcheck
