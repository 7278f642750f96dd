#include <gtest/gtest.h>

#include "checkers/mutual_exclusion.hpp"
#include "tests/support/history_builder.hpp"

using namespace lockcheck;
using lockcheck::testing::HistoryBuilder;

namespace {
CheckerResult check(HistoryBuilder& b) { return check_mutual_exclusion(b.history(), pair_ops(b.history())); }
}  // namespace

TEST(MutualExclusion, SequentialSessionsAreValid) {
    HistoryBuilder b;
    b.session(1, 0, 5, 300, 305);
    b.session(2, 310, 315, 600, 605);
    b.session(1, 610, 612, 900, 901);
    auto r = check(b);
    EXPECT_EQ(r.valid, Validity::Valid);
    EXPECT_TRUE(r.violations.empty());
    EXPECT_EQ(r.stats["sessions"], 3);
}

TEST(MutualExclusion, FailedAcquireOpensNoSession) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1);
    b.acquire_done(5, 1, OpType::Ok);
    b.acquire_invoke(10, 2);
    b.acquire_done(12, 2, OpType::Fail);
    b.release_invoke(300, 1);
    b.release_done(301, 1, OpType::Ok);
    EXPECT_EQ(check(b).valid, Validity::Valid);
}

TEST(MutualExclusion, OverlapWhileFirstLeaseValidIsWithinLease) {
    HistoryBuilder b;
    auto a1i = b.acquire_invoke(0, 1, 1000);
    auto a1 = b.acquire_done(5, 1, OpType::Ok);
    b.acquire_invoke(100, 2, 1000);
    auto a2 = b.acquire_done(110, 2, OpType::Ok);  // 110 ms: worker 1's lease runs until 999 ms
    auto r1 = b.release_invoke(300, 1);
    b.release_done(301, 1, OpType::Ok);
    b.release_invoke(400, 2);
    b.release_done(401, 2, OpType::Ok);
    auto r = check(b);
    EXPECT_EQ(r.valid, Validity::Invalid);
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].kind, kOverlapWithinLease);
    EXPECT_EQ(r.violations[0].ops, (std::vector<std::int64_t>{a1i, a1, a2, r1}));
    EXPECT_NEAR(r.violations[0].details["overlap_ms"].get<double>(), 190.0, 1e-6);
    EXPECT_EQ(r.stats["within_lease"], 1);
}

TEST(MutualExclusion, OverlapAfterFirstLeaseExpiredIsLeaseExpired) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1, 1000);
    b.acquire_done(5, 1, OpType::Ok);
    b.acquire_invoke(1200, 2, 1000);
    b.acquire_done(1210, 2, OpType::Ok);  // worker 1 paused past its 1000 ms lease
    b.release_invoke(2500, 1);
    b.release_done(2501, 1, OpType::Fail);
    b.release_invoke(2600, 2);
    b.release_done(2601, 2, OpType::Ok);
    auto r = check(b);
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].kind, kOverlapLeaseExpired);
    EXPECT_EQ(r.stats["lease_expired"], 1);
    EXPECT_EQ(r.stats["within_lease"], 0);
}

TEST(MutualExclusion, LeaseBoundaryCountsFromTheAcquireInvoke) {
    // Lease from the invoke at 0 with ttl 1000: certainly valid only until 999 ms
    // (one millisecond of expiry granularity), however late the ok came. Past
    // that the earlier lease may or may not still run (its grant may have come
    // as late as 900 ms): undecided, not "expired".
    for (auto [granted_ms, kind] : {std::pair{998.5, kOverlapWithinLease}, std::pair{999.5, kOverlapLeaseUncertain}}) {
        HistoryBuilder b;
        b.acquire_invoke(0, 1, 1000);
        b.acquire_done(900, 1, OpType::Ok);
        b.acquire_invoke(950, 2, 1000);
        b.acquire_done(granted_ms, 2, OpType::Ok);
        b.release_invoke(1100, 1);
        b.release_done(1101, 1, OpType::Ok);
        auto r = check(b);
        ASSERT_EQ(r.violations.size(), 1u);
        EXPECT_EQ(r.violations[0].kind, kind) << "granted at " << granted_ms;
    }
}

TEST(MutualExclusion, RenewExtendsTheLease) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1, 1000);
    b.acquire_done(5, 1, OpType::Ok);
    b.add(800, 1, OpType::Invoke, "renew");
    b.history().back().ttl_ms = 1000;
    b.add(802, 1, OpType::Ok, "renew");
    b.acquire_invoke(1500, 2, 1000);
    b.acquire_done(1510, 2, OpType::Ok);  // within the renewed lease (until 1800 ms)
    b.release_invoke(1600, 1);
    b.release_done(1601, 1, OpType::Ok);
    auto r = check(b);
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].kind, kOverlapWithinLease);
}

TEST(MutualExclusion, IndeterminateAcquireProvesNothing) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1);
    b.acquire_done(5, 1, OpType::Ok);
    b.acquire_invoke(10, 2);
    b.acquire_done(1000, 2, OpType::Info);  // may or may not hold: no proof of an overlap
    b.release_invoke(300, 1);
    b.release_done(301, 1, OpType::Ok);
    EXPECT_EQ(check(b).valid, Validity::Valid);
}

TEST(MutualExclusion, IndeterminateReleaseStillEndsTheCriticalSectionAtItsInvoke) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1);
    b.acquire_done(5, 1, OpType::Ok);
    b.release_invoke(300, 1);
    b.release_done(2000, 1, OpType::Info);
    b.acquire_invoke(400, 2);
    b.acquire_done(410, 2, OpType::Ok);
    b.release_invoke(500, 2);
    b.release_done(501, 2, OpType::Ok);
    EXPECT_EQ(check(b).valid, Validity::Valid);
}

TEST(MutualExclusion, HolderThatNeverReleasesHoldsToTheEnd) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1, 1000);
    b.acquire_done(5, 1, OpType::Ok);
    b.acquire_invoke(2000, 2, 1000);
    b.acquire_done(2001, 2, OpType::Ok);
    b.release_invoke(2100, 2);
    b.release_done(2101, 2, OpType::Ok);
    auto r = check(b);
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].kind, kOverlapLeaseExpired);
    EXPECT_EQ(r.violations[0].ops.size(), 3u);  // no release to cite
}

TEST(MutualExclusion, KeysAreIndependent) {
    HistoryBuilder b;
    b.add(0, 1, OpType::Invoke, "acquire", "a");
    b.add(1, 1, OpType::Ok, "acquire", "a");
    b.add(2, 2, OpType::Invoke, "acquire", "b");
    b.add(3, 2, OpType::Ok, "acquire", "b");
    b.add(10, 1, OpType::Invoke, "release", "a");
    b.add(11, 1, OpType::Ok, "release", "a");
    EXPECT_EQ(check(b).valid, Validity::Valid);
}

TEST(MutualExclusion, EveryOverlappingPairIsReported) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1, 100);
    b.acquire_done(1, 1, OpType::Ok);
    b.acquire_invoke(200, 2, 100);
    b.acquire_done(201, 2, OpType::Ok);
    b.acquire_invoke(400, 3, 100);
    b.acquire_done(401, 3, OpType::Ok);
    b.release_invoke(500, 1);
    b.release_done(501, 1, OpType::Ok);
    auto r = check(b);
    EXPECT_EQ(r.violations.size(), 3u);  // 1-2, 1-3, 2-3 (2 and 3 never release)
}
