// The expired-grant check (checkers/expired_grant.hpp) on histories built by
// hand: a grant answered ok with its lease over by the client's own account
// or by a held-back reply is the client's, with no overlap needed; the near
// misses (a little lease left, a refusal, a late answer the record cannot
// date) are not.
#include <gtest/gtest.h>

#include "checkers/expired_grant.hpp"
#include "checkers/overlap_blame.hpp"
#include "tests/support/history_builder.hpp"

using namespace lockcheck;
using lockcheck::testing::HistoryBuilder;

namespace {

CheckerResult expired(HistoryBuilder& b) { return check_expired_grant(b.history(), pair_ops(b.history())); }

/// Worker 1 alone: an acquire (1000 ms lease) sent at 0, answered `type` at
/// 200 ms with `valid_ms`, then released.
HistoryBuilder lone_grant(OpType type, std::optional<std::int64_t> valid_ms) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1, 1000);
    b.acquire_done(200, 1, type);
    if (valid_ms) b.history().back().valid_ms = *valid_ms;
    if (type == OpType::Ok) b.release(300, 301, 1);
    return b;
}

}  // namespace

TEST(ExpiredGrant, AGrantTheClientSaysHadNothingLeftIsTheClientsWithNoOverlap) {
    for (const std::int64_t valid_ms : {-500, 0}) {
        auto b = lone_grant(OpType::Ok, valid_ms);
        const auto r = expired(b);
        EXPECT_EQ(r.valid, Validity::Invalid) << valid_ms;
        ASSERT_EQ(r.violations.size(), 1u) << valid_ms;
        EXPECT_EQ(r.violations[0].kind, kExpiredGrant);
        EXPECT_EQ(r.violations[0].ops, (std::vector<std::int64_t>{0, 1}));
        EXPECT_EQ(r.violations[0].details["blame"], blame_class(Blame::ExpiredGrant).whose);
        EXPECT_EQ(r.violations[0].details["valid_ms"], valid_ms);
        EXPECT_NE(r.violations[0].description.find("valid_ms " + std::to_string(valid_ms)), std::string::npos)
            << r.violations[0].description;
        EXPECT_EQ(r.stats["expired_grants"], 1);
        EXPECT_EQ(r.stats["grants_ok"], 1);
    }
}

TEST(ExpiredGrant, AGrantWithAMillisecondLeftOrRefusedIsNone) {
    auto little_left = lone_grant(OpType::Ok, 1);
    EXPECT_EQ(expired(little_left).valid, Validity::Valid);
    // A correct client gives the late grant back: fail, whatever it had left.
    auto refused = lone_grant(OpType::Fail, -500);
    const auto r = expired(refused);
    EXPECT_EQ(r.valid, Validity::Valid);
    EXPECT_EQ(r.stats["grants_ok"], 0);
    auto unknown = lone_grant(OpType::Info, -500);
    EXPECT_EQ(expired(unknown).valid, Validity::Valid);
}

TEST(ExpiredGrant, AReplyHeldBackLongerThanTheLeaseProvesTheGrantExpired) {
    // Replies to worker 1 held back 1500 ms: the grant answered at 1700 ms
    // happened by 200 ms, so its 1000 ms lease was over by 1201 ms.
    HistoryBuilder b;
    b.slow_reply(0, 1, 1500);
    b.acquire_invoke(100, 1);
    b.acquire_done(1700, 1, OpType::Ok);
    b.release(1710, 3300, 1);
    b.stop_fault(3400);
    const auto r = expired(b);
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].kind, kExpiredGrant);
    EXPECT_NE(r.violations[0].description.find("held back 1500.0 ms"), std::string::npos)
        << r.violations[0].description;
}

TEST(ExpiredGrant, AReplyHeldBackLessThanTheLeaseOrALateAnswerAloneProvesNothing) {
    HistoryBuilder shorter;  // held back 600 ms: granted by 1100 ms, so the lease may run to 2101 ms
    shorter.slow_reply(0, 1, 600);
    shorter.acquire_invoke(100, 1);
    shorter.acquire_done(1700, 1, OpType::Ok);
    shorter.release(1710, 2400, 1);
    shorter.stop_fault(2500);
    EXPECT_EQ(expired(shorter).valid, Validity::Valid);
    // Answered 3 s after it was sent, with no fault and no valid_ms: the
    // server may have granted it just before the answer.
    HistoryBuilder slow;
    slow.acquire_invoke(0, 1, 1000);
    slow.acquire_done(3000, 1, OpType::Ok);
    slow.release(3100, 3101, 1);
    EXPECT_EQ(expired(slow).valid, Validity::Valid);
    // Sent before the fault was in place: its reply may not have been held back.
    HistoryBuilder before;
    before.acquire_invoke(0, 1, 1000);
    before.slow_reply(50, 1, 1500);
    before.acquire_done(1700, 1, OpType::Ok);
    before.release(1710, 3300, 1);
    before.stop_fault(3400);
    EXPECT_EQ(expired(before).valid, Validity::Valid);
}

TEST(ExpiredGrant, ItJudgesOnlyHistoriesWhoseRecordCanDateAGrant) {
    HistoryBuilder plain;  // no valid_ms, no slow-reply: nothing could prove a grant expired
    plain.session(1, 0, 1, 10, 11);
    EXPECT_FALSE(expired_grant_checker().applies(plain.history()));
    auto reported = lone_grant(OpType::Ok, 800);
    EXPECT_TRUE(expired_grant_checker().applies(reported.history()));
    HistoryBuilder slowed;
    slowed.slow_reply(0, 1, 1500);
    slowed.session(1, 10, 11, 20, 21);
    EXPECT_TRUE(expired_grant_checker().applies(slowed.history()));
}
