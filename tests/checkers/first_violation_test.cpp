// When a history first became invalid, found by bisecting its prefixes.
#include "checkers/first_violation.hpp"

#include <gtest/gtest.h>

#include "checkers/run_checkers.hpp"
#include "tests/support/history_builder.hpp"

using namespace lockcheck;
using lockcheck::testing::HistoryBuilder;

namespace {

/// Two clean sessions, then worker 2 acquires at `overlap_at` ms while worker 1 still holds (within its lease).
HistoryBuilder overlap_after_clean_sessions(double overlap_at, std::int64_t* overlapping_ok) {
    HistoryBuilder b;
    b.session(1, 0, 1, 10, 11);
    b.session(2, 20, 21, 30, 31);
    b.acquire_invoke(100, 1);
    b.acquire_done(101, 1, OpType::Ok);
    b.acquire_invoke(overlap_at - 1, 2);
    *overlapping_ok = b.acquire_done(overlap_at, 2, OpType::Ok);
    b.release_invoke(overlap_at + 100, 1);
    b.release_done(overlap_at + 101, 1, OpType::Ok);
    b.release_invoke(overlap_at + 200, 2);
    b.release_done(overlap_at + 201, 2, OpType::Ok);
    b.session(1, overlap_at + 300, overlap_at + 301, overlap_at + 310, overlap_at + 311);
    return b;
}

}  // namespace

TEST(FirstViolation, IsTheOpThatCompletesTheOverlap) {
    std::int64_t overlapping_ok = 0;
    auto b = overlap_after_clean_sessions(500, &overlapping_ok);
    ASSERT_EQ(run_checkers(b.history()).valid, Validity::Invalid);
    const auto first = first_violation(b.history());
    ASSERT_TRUE(first.has_value());
    EXPECT_EQ(first->op, overlapping_ok);
    EXPECT_DOUBLE_EQ(first->seconds, 0.5);
}

TEST(FirstViolation, NoneInAValidHistory) {
    HistoryBuilder b;
    b.session(1, 0, 1, 10, 11);
    b.session(2, 20, 21, 30, 31);
    EXPECT_FALSE(first_violation(b.history()).has_value());
    EXPECT_FALSE(first_violation(History{}).has_value());
}

TEST(FirstViolation, AnOverlapInTheLastOpIsFound) {
    HistoryBuilder b;
    b.session(1, 0, 1, 10, 11);
    b.acquire_invoke(100, 1);
    b.acquire_done(101, 1, OpType::Ok);
    b.acquire_invoke(200, 2);
    const auto last = b.acquire_done(201, 2, OpType::Ok);  // both hold when the history ends
    const auto first = first_violation(b.history());
    ASSERT_TRUE(first.has_value());
    EXPECT_EQ(first->op, last);
}
