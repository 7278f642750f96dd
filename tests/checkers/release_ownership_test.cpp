#include <gtest/gtest.h>

#include "checkers/release_ownership.hpp"
#include "checkers/run_checkers.hpp"
#include "tests/support/history_builder.hpp"

using namespace lockcheck;
using lockcheck::testing::HistoryBuilder;

namespace {

CheckerResult check(HistoryBuilder& b) { return check_release_ownership(b.history(), pair_ops(b.history())); }

/// Process 1 holds, pauses past its 100 ms lease, process 2 takes the lock,
/// then 1's unchecked release deletes `removed` (2's lock, or its own).
HistoryBuilder paused_holder_releases(const std::string& removed_of) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1, 100);
    b.acquire_done(1, 1, OpType::Ok);
    b.acquire_invoke(200, 2, 100);
    b.acquire_done(201, 2, OpType::Ok);
    b.release_invoke(250, 1);
    b.release_done(251, 1, OpType::Ok);
    const auto owner_2 = *b.history()[3].owner;
    const auto owner_1 = *b.history()[1].owner;
    b.history().back().value = {{"removed_owner", removed_of == "other" ? owner_2 : owner_1}};
    return b;
}

}  // namespace

TEST(ReleaseOwnership, ReleaseThatDeletedAnotherOwnersLockIsAViolation) {
    auto b = paused_holder_releases("other");
    const auto r = check(b);
    EXPECT_EQ(r.valid, Validity::Invalid);
    ASSERT_EQ(r.violations.size(), 1u);
    const auto& v = r.violations[0];
    EXPECT_EQ(v.kind, kReleaseByNonOwner);
    EXPECT_EQ(v.ops, (std::vector<std::int64_t>{4, 5, 3})) << "release invoke, release ok, the victim's acquire ok";
    EXPECT_EQ(v.details["removed_owner"], "p2-2");
    EXPECT_EQ(r.stats["releases_by_non_owner"], 1);
}

TEST(ReleaseOwnership, ReleaseOfOwnLockIsFine) {
    auto b = paused_holder_releases("self");
    const auto r = check(b);
    EXPECT_EQ(r.valid, Validity::Valid);
    EXPECT_EQ(r.stats["releases_reporting_owner"], 1);
}

TEST(ReleaseOwnership, ReleasesThatReportNothingAreNeverFlagged) {
    HistoryBuilder b;
    b.session(1, 0, 1, 50, 51);
    b.session(2, 60, 61, 90, 91);
    EXPECT_EQ(check(b).valid, Validity::Valid);
    EXPECT_EQ(check(b).stats["releases_reporting_owner"], 0);
}

TEST(ReleaseOwnership, CountsTowardTheRunsVerdict) {
    auto b = paused_holder_releases("other");
    const auto report = run_checkers(b.history());
    EXPECT_EQ(report.valid, Validity::Invalid);
    bool found = false;
    for (const auto& c : report.checkers) found |= c.name == "release-ownership" && !c.violations.empty();
    EXPECT_TRUE(found);
}

TEST(ReleaseOwnership, SummarySaysHowManyReleasesDeletedAnotherOwnersLock) {
    auto b = paused_holder_releases("other");
    EXPECT_EQ(check(b).stats["summary"], "1 of 1 releases deleted another owner's lock");
    HistoryBuilder quiet;
    quiet.session(1, 0, 1, 50, 51);
    EXPECT_EQ(check(quiet).stats["summary"], "no release reported what it removed");
}
