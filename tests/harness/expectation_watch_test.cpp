// --stop-on-decided's live verdict: ops observed one by one decide an
// expectation of invalid once they meet it, and an expectation of valid (or
// one that lacks kinds) once a violation certainly breaks it.
#include "run/expectation_watch.hpp"

#include <gtest/gtest.h>

#include "tests/support/history_builder.hpp"

using namespace lockcheck;
using lockcheck::testing::HistoryBuilder;

namespace {

Expectation expect_invalid(std::vector<std::string> has, std::vector<std::string> lacks = {}) {
    return Expectation{"invalid", std::move(has), std::move(lacks)};
}

/// A clean session, then worker 2 acquires at 500 ms while worker 1 holds within its lease.
History overlap_within_lease() {
    HistoryBuilder b;
    b.session(1, 0, 1, 10, 11);
    b.acquire_invoke(100, 1);
    b.acquire_done(101, 1, OpType::Ok);
    b.acquire_invoke(499, 2);
    b.acquire_done(500, 2, OpType::Ok);
    b.release_invoke(600, 1);
    b.release_done(601, 1, OpType::Ok);
    return b.history();
}

/// Observes `history` op by op, checking after each, until `watch` decides:
/// the decision and how many ops had been observed then.
std::pair<std::optional<EarlyDecision>, std::size_t> decide_op_by_op(ExpectationWatch& watch, const History& history) {
    std::size_t observed = 0;
    for (const auto& op : history) {
        watch.observe(op);
        ++observed;
        if (auto decision = watch.check()) return {decision, observed};
    }
    return {std::nullopt, observed};
}

}  // namespace

TEST(ExpectationWatch, DecidesEarlyWhatAViolationCanDecide) {
    EXPECT_TRUE(ExpectationWatch::decides_early(expect_invalid({})));
    EXPECT_TRUE(ExpectationWatch::decides_early(Expectation{"valid", {}, {}})) << "an overlap breaks it";
    EXPECT_TRUE(ExpectationWatch::decides_early(Expectation{std::nullopt, {}, {"overlap-within-lease"}}));
    EXPECT_FALSE(ExpectationWatch::decides_early(Expectation{"unknown", {}, {}}));
    EXPECT_FALSE(ExpectationWatch::decides_early(std::nullopt));
}

TEST(ExpectationWatch, DecidesAtTheOpThatMeetsTheExpectation) {
    ExpectationWatch watch(expect_invalid({"overlap-within-lease"}));
    const auto [decision, observed] = decide_op_by_op(watch, overlap_within_lease());
    ASSERT_TRUE(decision.has_value());
    EXPECT_EQ(observed, 8u) << "the acquire ok at 500 ms (the 8th op) makes the overlap certain";
    EXPECT_EQ(decision->ops, 8);
    EXPECT_DOUBLE_EQ(decision->seconds, 0.5);
    EXPECT_NE(decision->reason.find("overlap-within-lease"), std::string::npos) << decision->reason;
}

TEST(ExpectationWatch, AMissingKindKeepsTheRunGoing) {
    ExpectationWatch watch(expect_invalid({"overlap-within-lease", "lost-update"}));
    for (const auto& op : overlap_within_lease()) watch.observe(op);
    EXPECT_FALSE(watch.check().has_value()) << "invalid, but no lost update yet";
}

TEST(ExpectationWatch, AKindTheExpectationLacksDecidesItNotMet) {
    ExpectationWatch watch(expect_invalid({}, {"overlap-within-lease"}));
    for (const auto& op : overlap_within_lease()) watch.observe(op);
    const auto decision = watch.check();
    ASSERT_TRUE(decision.has_value()) << "a forbidden kind in a prefix stays in the whole history";
    EXPECT_EQ(decision->reason, "expectation not met: expected no overlap-within-lease, found some");
}

TEST(ExpectationWatch, AnOverlapDecidesAnExpectedValidVerdictNotMet) {
    ExpectationWatch watch(Expectation{"valid", {}, {}});
    const auto [decision, observed] = decide_op_by_op(watch, overlap_within_lease());
    ASSERT_TRUE(decision.has_value());
    EXPECT_EQ(observed, 8u) << "decided at the op that makes the overlap certain, not before";
    EXPECT_EQ(decision->reason, "expectation not met: expected valid, found invalid with overlap-within-lease");
}

TEST(ExpectationWatch, ALacksOnlyExpectationIgnoresOtherKinds) {
    ExpectationWatch watch(Expectation{std::nullopt, {}, {"late-grant", "renew-after-loss"}});
    for (const auto& op : overlap_within_lease()) watch.observe(op);
    EXPECT_FALSE(watch.check().has_value()) << "an overlap within the lease is allowed: nothing decided yet";
}

TEST(ExpectationWatch, AValidHistoryDecidesNothing) {
    ExpectationWatch watch(expect_invalid({}));
    HistoryBuilder b;
    b.session(1, 0, 1, 10, 11);
    b.session(2, 20, 21, 30, 31);
    for (const auto& op : b.history()) watch.observe(op);
    EXPECT_FALSE(watch.check().has_value());
}

TEST(ExpectationWatch, WatchEndsWhenStopped) {
    ExpectationWatch watch(expect_invalid({}));
    std::stop_source stop;
    stop.request_stop();
    EXPECT_FALSE(watch.watch(stop.get_token(), std::chrono::milliseconds(10)).has_value());
}
