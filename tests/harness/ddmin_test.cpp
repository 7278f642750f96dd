// ddmin over a fault schedule's events with a fake "runs and fails" test:
// what it keeps, that it never tries a list twice, and a stop.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "commands/shrink/ddmin.hpp"
#include "commands/shrink/shrink_search.hpp"

using namespace lockcheck;

namespace {

/// A test that fails when every position of `culprits` is in the list, and
/// counts the lists it was asked about.
struct FakeRuns {
    explicit FakeRuns(std::set<std::size_t> c) : culprits(std::move(c)) {}
    std::set<std::size_t> culprits;
    std::set<std::vector<std::size_t>> asked;
    int calls = 0;
    DdminTest test() {
        return [this](const std::vector<std::size_t>& positions) -> std::optional<bool> {
            ++calls;
            asked.insert(positions);
            return std::all_of(culprits.begin(), culprits.end(), [&](std::size_t c) {
                return std::find(positions.begin(), positions.end(), c) != positions.end();
            });
        };
    }
};

}  // namespace

TEST(Ddmin, FindsTheOneEventThatFailsAlone) {
    FakeRuns runs{{7}};
    const auto result = ddmin(12, runs.test());
    EXPECT_EQ(result.kept, (std::vector<std::size_t>{7}));
    EXPECT_FALSE(result.stopped);
    EXPECT_LT(runs.calls, 12) << "fewer tries than one per event";
}

TEST(Ddmin, KeepsAPairWhenOnlyBothEventsTogetherFail) {
    // Neither event fails alone, and they fall into different halves: ddmin
    // must go on to complements to find the pair.
    FakeRuns runs{{2, 9}};
    const auto result = ddmin(12, runs.test());
    EXPECT_EQ(result.kept, (std::vector<std::size_t>{2, 9}));
    EXPECT_FALSE(result.stopped);
    EXPECT_EQ(runs.asked.size(), static_cast<std::size_t>(runs.calls)) << "no list tried twice";
}

TEST(Ddmin, KeepsEveryEventWhenAllAreNeeded) {
    FakeRuns runs{{0, 1, 2, 3}};
    const auto result = ddmin(4, runs.test());
    EXPECT_EQ(result.kept, (std::vector<std::size_t>{0, 1, 2, 3}));
}

TEST(Ddmin, NeverTriesTheEmptyListAndNothingForOneEvent) {
    FakeRuns runs{{0}};
    EXPECT_EQ(ddmin(1, runs.test()).kept, (std::vector<std::size_t>{0}));
    EXPECT_EQ(runs.calls, 0);
    EXPECT_FALSE(runs.asked.count({}));
}

TEST(Ddmin, AStopReturnsTheBestSoFar) {
    int calls = 0;
    // The first half fails; then the test asks to stop.
    const auto result = ddmin(8, [&](const std::vector<std::size_t>& positions) -> std::optional<bool> {
        if (++calls > 1) return std::nullopt;
        return positions.front() == 0;
    });
    EXPECT_TRUE(result.stopped);
    EXPECT_EQ(result.kept, (std::vector<std::size_t>{0, 1, 2, 3}));
}

TEST(ShrinkSearch, DropsEventsThenWorkersThenKeysThenCutsTheTimeLimit) {
    ShrinkShape start{{}, 5, 2, 30};
    for (int i = 1; i <= 6; ++i) {
        FaultEvent e;
        e.id = i;
        e.kind = "failover";
        e.at_ms = i * 3000;
        start.events.push_back(e);
    }
    std::vector<std::string> steps;
    // Fails while event 2 is in, with at least 2 workers, whatever the keys and a time limit >= 10 s.
    const auto result = shrink_search(
        {start, {1, 2, 3, 4}, {6.0}},
        [&](const ShrinkShape& shape, const std::string& step, const std::string&) -> std::optional<TrialVerdict> {
            steps.push_back(step);
            const bool has_2 = std::any_of(shape.events.begin(), shape.events.end(), [](auto& e) { return e.id == 2; });
            return TrialVerdict{has_2 && shape.workers >= 2 && shape.time_limit_s >= 10, {6.5}};
        });
    EXPECT_FALSE(result.stopped);
    ASSERT_EQ(result.best.events.size(), 1u);
    EXPECT_EQ(result.best.events[0].id, 2);
    EXPECT_EQ(result.best.workers, 2);
    EXPECT_EQ(result.best.keys, 1);
    EXPECT_EQ(result.best.time_limit_s, time_limit_past({6.5}));
    EXPECT_EQ(steps.front(), "events not started before the first violation");
    EXPECT_EQ(steps.back(), "time limit");
}

TEST(ShrinkSearch, TheTimeLimitIsJustPastTheLatestFirstViolation) {
    EXPECT_EQ(time_limit_past({4.0, 6.2, 5.0}), 9.0);  // 6.2 x 1.25 + 1 = 8.75, rounded up
}

TEST(ShrinkSearch, NamesEventsWithRangesOfConsecutiveIds) {
    std::vector<FaultEvent> events;
    for (const int id : {2, 3, 5, 7, 8, 9, 10}) {
        FaultEvent e;
        e.id = id;
        events.push_back(e);
    }
    EXPECT_EQ(event_ids(events), "ids 2, 3, 5, 7-10");
    EXPECT_EQ(event_ids({events[2]}), "id 5");
}
