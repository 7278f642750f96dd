#include <gtest/gtest.h>

#include "checkers/resource.hpp"
#include "tests/support/history_builder.hpp"

using namespace lockcheck;
using lockcheck::testing::HistoryBuilder;

namespace {
CheckerResult check(HistoryBuilder& b) { return check_resource(b.history(), pair_ops(b.history())); }
}  // namespace

TEST(ResourceChecker, SerialUpdatesAreValid) {
    HistoryBuilder b;
    b.read(0, 1, 1, 0, 1);
    b.write(2, 3, 1, 1, 1);
    b.read(4, 5, 2, 1, 2);
    b.write(6, 7, 2, 2, 2);
    auto r = check(b);
    EXPECT_EQ(r.valid, Validity::Valid);
    EXPECT_EQ(r.stats["writes_accepted"], 2);
    EXPECT_EQ(r.stats["lost_updates"], 0);
}

TEST(ResourceChecker, InterleavedUpdateIsLostAndStale) {
    HistoryBuilder b;
    auto r1 = b.read(0, 1, 1, 0, 1);     // worker 1 (token 1) reads 0, then pauses
    b.read(10, 11, 2, 0, 2);             // worker 2 (token 2) reads 0
    auto w2 = b.write(12, 13, 2, 1, 2);  // and writes 1
    auto w1 = b.write(20, 21, 1, 1, 1);  // worker 1 wakes and writes 1: worker 2's update is lost
    auto r = check(b);
    EXPECT_EQ(r.valid, Validity::Invalid);
    ASSERT_EQ(r.violations.size(), 2u);
    EXPECT_EQ(r.violations[0].kind, kStaleWriteAccepted);
    EXPECT_EQ(r.violations[1].kind, kLostUpdate);
    EXPECT_EQ(r.violations[1].ops, (std::vector<std::int64_t>{r1, w2, w1}));
    EXPECT_EQ(r.stats["lost_updates"], 1);
    EXPECT_EQ(r.stats["stale_writes_accepted"], 1);
}

TEST(ResourceChecker, LostUpdateWithoutTokens) {
    HistoryBuilder b;
    b.read(0, 1, 1, 0);
    b.read(2, 3, 2, 0);
    b.write(4, 5, 1, 1);
    b.write(6, 7, 2, 1);
    auto r = check(b);
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].kind, kLostUpdate);
}

TEST(ResourceChecker, FencedWriteIsCountedNotAViolation) {
    HistoryBuilder b;
    b.read(0, 1, 1, 0, 1);
    b.read(10, 11, 2, 0, 2);
    b.write(12, 13, 2, 1, 2);
    b.write(20, 21, 1, 1, 1, OpType::Fail);  // rejected: token 1 < 2
    auto r = check(b);
    EXPECT_EQ(r.valid, Validity::Valid);
    EXPECT_EQ(r.stats["fenced"], 1);
    EXPECT_EQ(r.stats["writes_accepted"], 1);
}

TEST(ResourceChecker, StaleWriteWithoutLostUpdate) {
    HistoryBuilder b;
    b.read(0, 1, 2, 0, 2);   // worker 2 (token 2) reads first
    b.read(2, 3, 1, 0, 1);   // worker 1 (token 1, stale) reads
    b.write(4, 5, 1, 1, 1);  // stale write accepted without fencing
    auto r = check(b);
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].kind, kStaleWriteAccepted);
}
