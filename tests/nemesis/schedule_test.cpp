#include <gtest/gtest.h>

#include "nemesis/schedule.hpp"

using namespace lockcheck;

namespace {
ScheduleOptions options(std::uint64_t seed) {
    ScheduleOptions o;
    o.seed = seed;
    o.kinds = {"pause-holder", "pause-node"};
    o.time_limit_ms = 60'000;
    return o;
}
}  // namespace

TEST(Schedule, SameSeedGivesTheSameSchedule) {
    EXPECT_EQ(schedule_to_json(generate_schedule(options(42))), schedule_to_json(generate_schedule(options(42))));
}

TEST(Schedule, DifferentSeedsGiveDifferentSchedules) {
    EXPECT_NE(schedule_to_json(generate_schedule(options(1))), schedule_to_json(generate_schedule(options(2))));
}

TEST(Schedule, FaultsDoNotOverlapAndStayInBounds) {
    const auto o = options(7);
    const auto events = generate_schedule(o);
    ASSERT_GT(events.size(), 5u);
    for (std::size_t i = 0; i < events.size(); ++i) {
        const auto& e = events[i];
        EXPECT_LT(e.at_ms, o.time_limit_ms);
        EXPECT_GE(e.duration_ms, o.duration_min_ms);
        EXPECT_LE(e.duration_ms, o.duration_max_ms);
        if (i > 0) {
            EXPECT_GE(e.at_ms, events[i - 1].at_ms + events[i - 1].duration_ms + o.gap_min_ms);
        }
    }
}

TEST(Schedule, NoKindsNoFaults) {
    auto o = options(1);
    o.kinds.clear();
    EXPECT_TRUE(generate_schedule(o).empty());
}
