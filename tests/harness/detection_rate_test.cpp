// The detection rate of `lockcheck suite --repeat N`: Wilson's score interval
// against published values, the median, and the aggregation of runs.
#include "commands/suite/detection_rate.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace lockcheck;

TEST(WilsonInterval, MatchesPublishedValues) {
    // 95% Wilson score intervals (e.g. Newcombe 1998, table I; Brown, Cai & DasGupta 2001).
    const auto nine_of_ten = wilson_interval(9, 10);
    EXPECT_NEAR(nine_of_ten.low, 0.5958, 1e-4);
    EXPECT_NEAR(nine_of_ten.high, 0.9821, 1e-4);
    const auto half = wilson_interval(5, 10);
    EXPECT_NEAR(half.low, 0.2366, 1e-4);
    EXPECT_NEAR(half.high, 0.7634, 1e-4);
}

TEST(WilsonInterval, StaysInsideZeroAndOneAtTheEdges) {
    const auto none = wilson_interval(0, 10);
    EXPECT_EQ(none.low, 0.0);
    EXPECT_NEAR(none.high, 0.2775, 1e-4);
    const auto all = wilson_interval(10, 10);
    EXPECT_NEAR(all.low, 0.7225, 1e-4);
    EXPECT_LE(all.high, 1.0);
    EXPECT_NEAR(all.high, 1.0, 1e-12);
    const auto one = wilson_interval(1, 1);  // one run says little: the interval is wide
    EXPECT_NEAR(one.low, 0.2065, 1e-4);
}

TEST(WilsonInterval, NarrowsWithMoreRuns) {
    const auto ten = wilson_interval(9, 10);
    const auto hundred = wilson_interval(90, 100);
    EXPECT_LT(hundred.high - hundred.low, ten.high - ten.low);
    EXPECT_LT(hundred.low, 0.9);
    EXPECT_GT(hundred.high, 0.9);
}

TEST(WilsonInterval, RefusesImpossibleCounts) {
    EXPECT_THROW(wilson_interval(0, 0), std::invalid_argument);
    EXPECT_THROW(wilson_interval(3, 2), std::invalid_argument);
    EXPECT_THROW(wilson_interval(-1, 2), std::invalid_argument);
}

TEST(Median, OddEvenAndEmpty) {
    EXPECT_EQ(median({3.0, 1.0, 2.0}), 2.0);
    EXPECT_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
    EXPECT_FALSE(median({}).has_value());
}

TEST(DetectionRate, CountsMetRunsAndTakesTheMedianOverRunsWithAViolation) {
    const auto rate = detection_rate({{true, 2.0}, {true, 4.0}, {false, std::nullopt}, {true, 3.0}});
    EXPECT_EQ(rate.runs, 4);
    EXPECT_EQ(rate.met, 3);
    EXPECT_EQ(rate.violated, 3);
    ASSERT_TRUE(rate.median_first_violation.has_value());
    EXPECT_EQ(*rate.median_first_violation, 3.0);  // the run without a violation does not count as 0 s
    const auto expected = wilson_interval(3, 4);
    EXPECT_EQ(rate.interval.low, expected.low);
    EXPECT_EQ(rate.interval.high, expected.high);
}

TEST(DetectionRate, ASafeScenarioHasNoTimeToAViolation) {
    const auto rate = detection_rate({{true, std::nullopt}, {true, std::nullopt}});
    EXPECT_EQ(rate.met, 2);
    EXPECT_EQ(rate.violated, 0);
    EXPECT_FALSE(rate.median_first_violation.has_value());
    EXPECT_THROW(detection_rate({}), std::invalid_argument);
}
