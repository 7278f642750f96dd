// The blame classes (checkers/overlap_blame.hpp) on histories built by hand:
// each class, each bound that decides it, and the honest "undecided".
#include <gtest/gtest.h>

#include <set>

#include "checkers/mutual_exclusion.hpp"
#include "checkers/renew_after_loss.hpp"
#include "tests/support/history_builder.hpp"

using namespace lockcheck;
using lockcheck::testing::HistoryBuilder;

namespace {

CheckerResult overlaps(HistoryBuilder& b) { return check_mutual_exclusion(b.history(), pair_ops(b.history())); }
CheckerResult renews(HistoryBuilder& b) { return check_renew_after_loss(b.history(), pair_ops(b.history())); }

/// The one overlap's kind (fails the test unless there is exactly one).
std::string only_kind(const CheckerResult& r) {
    EXPECT_EQ(r.violations.size(), 1u);
    return r.violations.empty() ? "" : r.violations[0].kind;
}

}  // namespace

TEST(OverlapBlame, TheTableNamesEveryClassOnceWithItsBoundAndWords) {
    std::set<std::string_view> kinds;
    for (const BlameClass& c : blame_classes()) {
        EXPECT_TRUE(kinds.insert(c.kind).second) << c.kind;
        EXPECT_FALSE(c.whose.empty());
        EXPECT_FALSE(c.bound.empty());
        EXPECT_FALSE(c.words.empty());
        EXPECT_EQ(blame_class(c.blame).kind, c.kind);
    }
    EXPECT_EQ(kinds.size(), kBlameClasses);
}

namespace {

/// Worker 1 holds a fresh, certainly valid lease from 5 ms; worker 2's grant
/// arrives at 200 ms and its client reports `valid_ms` with it.
CheckerResult grant_reported_with(std::int64_t valid_ms) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1, 1000);
    b.acquire_done(5, 1, OpType::Ok);
    b.acquire_invoke(100, 2, 1000);
    b.acquire_done(200, 2, OpType::Ok);
    b.history().back().valid_ms = valid_ms;
    b.release(600, 601, 1);
    b.release(700, 701, 2);
    return overlaps(b);
}

}  // namespace

TEST(OverlapBlame, AGrantTheClientSaysHadExpiredIsALateGrantNotTheServersFault) {
    // valid_ms -500: worker 2's own client knew the lease was over, and used it.
    const auto r = grant_reported_with(-500);
    EXPECT_EQ(only_kind(r), kLateGrant);
    EXPECT_EQ(r.stats["late_grant"], 1);
    EXPECT_EQ(r.stats["within_lease"], 0);
    EXPECT_NE(r.violations[0].description.find("valid_ms -500"), std::string::npos) << r.violations[0].description;
    EXPECT_EQ(r.violations[0].details["late_process"], 2);
    EXPECT_NE(r.violations[0].details["blame"].get<std::string>().find("your client"), std::string::npos);
}

TEST(OverlapBlame, AValidityLeftIsNoLateGrant) {
    EXPECT_EQ(only_kind(grant_reported_with(880)), kOverlapWithinLease);
}

TEST(OverlapBlame, AReplyHeldBackLongerThanTheLeaseIsALateGrant) {
    // slow-reply holds worker 2's replies back 1250 ms: its grant happened by
    // 1300 - 1250 = 50 ms (no earlier than its invoke, 100 ms), so its 1000 ms
    // lease was over by 1101 ms, before the grant arrived at 1300.
    HistoryBuilder b;
    b.slow_reply(50, 2, 1250);
    b.acquire_invoke(100, 2, 1000);
    b.acquire_invoke(1250, 1, 1000);
    b.acquire_done(1260, 1, OpType::Ok);
    b.acquire_done(1300, 2, OpType::Ok);
    b.release(1400, 1401, 1);
    b.release_invoke(1500, 2);
    b.stop_fault(1600);
    b.release_done(1601, 2, OpType::Ok);
    const auto r = overlaps(b);
    EXPECT_EQ(only_kind(r), kLateGrant);
    EXPECT_EQ(r.violations[0].details["late_process"], 2);
}

TEST(OverlapBlame, WithoutTheFaultsRecordTheSameOverlapIsUndecided) {
    // The same ops without the slow-reply record: worker 2's grant may have
    // come as late as 1300 ms, so its lease may still have run; worker 1's
    // grant at 1260 ms may have come after worker 2's lease ended.
    HistoryBuilder b;
    b.acquire_invoke(100, 2, 1000);
    b.acquire_invoke(1250, 1, 1000);
    b.acquire_done(1260, 1, OpType::Ok);
    b.acquire_done(1300, 2, OpType::Ok);
    b.release(1400, 1401, 1);
    const auto r = overlaps(b);
    EXPECT_EQ(only_kind(r), kOverlapLeaseUncertain);
    EXPECT_EQ(r.stats["lease_uncertain"], 1);
    EXPECT_NE(r.violations[0].description.find("Whose fault: undecided"), std::string::npos);
}

TEST(OverlapBlame, AnAcquireQueuedAtTheServerIsNotCalledExpiredFromItsInvoke) {
    // Worker 1's acquire waited 3 s at a paused server: its lease may have
    // begun as late as its ok (3000 ms), so at worker 2's grant (3020 ms) it
    // may well have been valid. Counted from the invoke it would look 2 s stale.
    HistoryBuilder b;
    b.acquire_invoke(0, 1, 1000);
    b.acquire_done(3000, 1, OpType::Ok);
    b.acquire_invoke(3020, 2, 1000);
    b.acquire_done(3025, 2, OpType::Ok);
    b.release(3200, 3201, 1);
    const auto r = overlaps(b);
    EXPECT_EQ(only_kind(r), kOverlapLeaseUncertain);
    EXPECT_NEAR(r.violations[0].details["first_lease_over_by_ms"].get<double>(), 4001 - 3025, 1e-6);
}

TEST(OverlapBlame, AHeldBackReplyTightensTheEarlierLeaseToExpired) {
    // Worker 1's replies are held back 900 ms: its grant happened by 100 ms,
    // so its lease was over by 1101 ms, before worker 2's acquire at 1150 ms.
    HistoryBuilder b;
    b.slow_reply(0, 1, 900);
    b.acquire_invoke(0, 1, 1000);
    b.acquire_done(1000, 1, OpType::Ok);
    b.acquire_invoke(1150, 2, 1000);
    b.acquire_done(1160, 2, OpType::Ok);
    b.release_invoke(1500, 1);
    b.stop_fault(1550);
    b.release_done(1551, 1, OpType::Ok);
    EXPECT_EQ(only_kind(overlaps(b)), kOverlapLeaseExpired);
}

namespace {

/// Worker 1 holds from 5 ms (lease 1000 ms, over by 1006 ms at the latest),
/// sends a renew at `renew_at_ms` that gets no answer, and worker 2 is
/// granted the lock at 1500-1510 ms.
CheckerResult unanswered_renew_then_grant(double renew_at_ms) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1, 1000);
    b.acquire_done(5, 1, OpType::Ok);
    b.renew(renew_at_ms, 0, 1, OpType::Invoke);
    b.acquire_invoke(1500, 2, 1000);
    b.acquire_done(1510, 2, OpType::Ok);
    b.release(1600, 1601, 2);
    return overlaps(b);
}

}  // namespace

TEST(OverlapBlame, ARenewInFlightMayHaveExtendedTheLease) {
    // Sent at 900 ms, it may have taken effect just before the lease ran
    // out, so at 1500 ms the lease may still run.
    EXPECT_EQ(only_kind(unanswered_renew_then_grant(900)), kOverlapLeaseUncertain);
}

TEST(OverlapBlame, ARenewInvokedAfterTheLeaseEndedExtendsNothingItDoesNotProve) {
    // Sent at 1200 ms, after the lease had certainly ended (1006 ms).
    EXPECT_EQ(only_kind(unanswered_renew_then_grant(1200)), kOverlapLeaseExpired);
}

TEST(RenewAfterLoss, ARenewOkAfterAnotherOwnersGrantAndReleaseIsFlagged) {
    // Worker 1's lease ended by 1006 ms; worker 2 held the lock 1200-1300 ms
    // and released it; worker 1's refresh at 1400 ms re-created the key.
    HistoryBuilder b;
    const auto lost_ok = [&] {
        b.acquire_invoke(0, 1, 1000);
        return b.acquire_done(5, 1, OpType::Ok);
    }();
    const auto taker_invoke = b.acquire_invoke(1200, 2, 1000);
    const auto taker_ok = b.acquire_done(1205, 2, OpType::Ok);
    b.release(1300, 1301, 2);
    b.renew(1400, 1402, 1, OpType::Ok);
    b.release(1500, 1501, 1);
    const auto r = renews(b);
    EXPECT_EQ(r.valid, Validity::Invalid);
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].kind, kRenewAfterLoss);
    EXPECT_EQ(r.violations[0].ops, (std::vector<std::int64_t>{lost_ok, taker_invoke, taker_ok, 6, 7}));
    EXPECT_EQ(r.stats["renews_ok"], 1);
}

namespace {

/// Worker 1 granted at 0-5 ms (1000 ms leases), then worker 2's whole
/// session acquire [t0, t1], release [t2, t3].
HistoryBuilder held_then_other_session(double t0, double t1, double t2, double t3) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1, 1000);
    b.acquire_done(5, 1, OpType::Ok);
    b.session(2, t0, t1, t2, t3);
    return b;
}

}  // namespace

TEST(RenewAfterLoss, ARefusedRenewAfterTheLossIsCorrect) {
    auto b = held_then_other_session(1200, 1205, 1300, 1301);
    b.renew(1400, 1402, 1, OpType::Fail);
    b.release(1500, 1501, 1, OpType::Fail);
    EXPECT_EQ(renews(b).valid, Validity::Valid);
}

TEST(RenewAfterLoss, ARenewInTimeIsNoViolationEvenWhenAnotherGrantFollows) {
    // The renew at 900 ms is in time; worker 2's grant at 1200 ms came after
    // it, within the renewed lease: an overlap within the lease, no lost renew.
    HistoryBuilder b;
    b.acquire_invoke(0, 1, 1000);
    b.acquire_done(5, 1, OpType::Ok);
    b.renew(900, 902, 1, OpType::Ok);
    b.session(2, 1200, 1205, 1300, 1301);
    b.release(1500, 1501, 1);
    EXPECT_EQ(renews(b).valid, Validity::Valid);
    EXPECT_EQ(only_kind(overlaps(b)), kOverlapWithinLease);
}

TEST(RenewAfterLoss, ARenewSentAfterTheLeaseCertainlyEndedRevivesItWhereverTheOtherGrantFell) {
    // Worker 2's acquire was invoked at 1000 ms, before worker 1's lease
    // certainly ended (1006 ms). Had the server kept its promise, that grant
    // came after worker 1's lease ended; the renew, sent at 1400 ms, long
    // after, took effect after it in every such world: a revival. (Had the
    // server granted within the lease, that overlap is mutual-exclusion's.)
    auto b = held_then_other_session(1000, 1010, 1300, 1301);
    b.renew(1400, 1402, 1, OpType::Ok);
    const auto r = renews(b);
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].details["reading"], "revived");
}

TEST(RenewAfterLoss, AGrantCertainlyWithinTheFirstLeaseIsTheServersNotTheRenews) {
    // Worker 2 was granted at 500-505 ms, within worker 1's lease in every
    // world: no world has a server that kept its promise, so the renew's
    // success proves nothing of the client; the overlap is within the lease.
    auto b = held_then_other_session(500, 505, 600, 601);
    b.renew(1400, 1402, 1, OpType::Ok);
    EXPECT_EQ(renews(b).valid, Validity::Valid);
}

namespace {

/// Worker 1 holds from 0-5 ms (1000 ms leases) and sends a renew at 900 ms,
/// answered `answer` at 2300 ms; worker 2's acquire, invoked at 1050 ms, is
/// granted at `taker_ok_ms` and released 20 ms later. With `paused_until_ms`,
/// a pause-client fault stops worker 1 from 850 ms until then.
HistoryBuilder renew_in_flight(OpType answer, double taker_ok_ms = 1051, double paused_until_ms = 0) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1, 1000);
    b.acquire_done(5, 1, OpType::Ok);
    if (paused_until_ms > 0) b.pause(850, 1, 7);
    b.renew_invoke(900, 1);
    if (paused_until_ms > 0) b.stop_fault(paused_until_ms, 7);
    b.acquire_invoke(1050, 2, 1000);
    b.acquire_done(taker_ok_ms, 2, OpType::Ok);
    b.release(taker_ok_ms + 20, taker_ok_ms + 21, 2);
    b.renew_done(2300, 1, answer);
    b.release(2400, 2401, 1);
    return b;
}

}  // namespace

TEST(RenewAfterLoss, ARenewInFlightAcrossAnotherOwnersGrantIsFlaggedWithBothReadings) {
    // Sent at 900 ms of a 1000 ms lease, answered ok at 2300 ms; worker 2 was
    // granted at 1051 ms, before even a renew that took effect at 900 ms could
    // have run out (1899 ms): took the renew effect first, the server granted
    // within the renewed lease; after, the renew revived a lost lock.
    auto b = renew_in_flight(OpType::Ok);
    const auto r = renews(b);
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].kind, kRenewAfterLoss);
    EXPECT_EQ(r.violations[0].details["reading"], "either");
    EXPECT_NE(r.violations[0].description.find("either the renew took effect first"), std::string::npos)
        << r.violations[0].description;
    EXPECT_EQ(r.stats["renews_across_grant"], 1);
}

TEST(RenewAfterLoss, TheSameRenewAnsweredFailOrInfoIsNone) {
    for (const OpType answer : {OpType::Fail, OpType::Info}) {
        auto b = renew_in_flight(answer);
        const auto r = renews(b);
        EXPECT_TRUE(r.violations.empty()) << static_cast<int>(answer);
        EXPECT_EQ(r.stats["renews_across_grant"], 1) << "the danger came about all the same";
    }
}

TEST(RenewAfterLoss, AGrantAfterTheRenewedLeaseCouldHaveRunOutIsNoRevival) {
    // Worker 2 granted at 1950 ms: had the renew taken effect at 900 ms, its
    // lease could have run out by then (1899 ms), and the server was right.
    auto b = renew_in_flight(OpType::Ok, 1950);
    EXPECT_EQ(renews(b).valid, Validity::Valid);
}

TEST(RenewAfterLoss, AWorkerStoppedWhenItsRenewWasSentMakesTheRevivalCertain) {
    // Worker 1 was stopped from 850 ms to 1100 ms: it read the renew sent at
    // 900 ms only after 1100 ms, after worker 2's grant (1051 ms).
    auto b = renew_in_flight(OpType::Ok, 1051, 1100);
    const auto r = renews(b);
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].details["reading"], "revived");
    EXPECT_NE(r.violations[0].description.find("was stopped when the renew was sent"), std::string::npos)
        << r.violations[0].description;
}

TEST(RenewAfterLoss, AStopThatEndedBeforeTheOtherGrantLeavesBothReadings) {
    auto b = renew_in_flight(OpType::Ok, 1051, 1000);
    const auto r = renews(b);
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].details["reading"], "either");
}

TEST(RenewAfterLoss, AReleaseBeforeTheOtherGrantWasAnsweredMayHaveEndedTheRenewedHold) {
    // The shape of a leader partition on etcd: worker 1's keep-alive sent at
    // 900 ms is answered ok at 2300 ms, worker 1 releases at once, and worker
    // 2's acquire, invoked at 2290 ms, is answered at 2320 ms: the renew may
    // have taken effect, then the release, then the grant. No violation.
    HistoryBuilder b;
    b.acquire_invoke(0, 1, 1000);
    b.acquire_done(5, 1, OpType::Ok);
    b.renew_invoke(900, 1);
    b.acquire_invoke(2290, 2, 1000);
    b.renew_done(2300, 1, OpType::Ok);
    b.release_invoke(2301, 1);
    b.acquire_done(2320, 2, OpType::Ok);
    b.release_done(2330, 1, OpType::Ok);
    b.release(2400, 2401, 2);
    EXPECT_EQ(renews(b).valid, Validity::Valid);
}
