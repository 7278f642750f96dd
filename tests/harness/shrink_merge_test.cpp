// The merge step of lockcheck shrink with constructed shapes: which events
// merge_events joins (within one hold) and with which count, and that the
// search tries the merged candidate before delta debugging and, when that
// one is refused, after it; keeps it when the callback keeps it and leaves
// the events as they were when not.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>

#include "commands/shrink/shrink_merge.hpp"
#include "commands/shrink/shrink_search.hpp"

using namespace lockcheck;

namespace {

const CountOptions kKillRestart{{"kill-restart", {"kill_restart_nodes", 1}}};
constexpr std::int64_t kHold = 2000;

FaultEvent event(int id, const std::string& kind, std::int64_t at_ms, nlohmann::json options = nullptr) {
    FaultEvent e;
    e.id = id;
    e.kind = kind;
    e.at_ms = at_ms;
    e.pick = static_cast<std::uint64_t>(id) * 7;
    e.options = std::move(options);
    return e;
}

/// The kill-restart nodes of all of `shape`'s events: how many crashes it makes.
std::int64_t crashes(const ShrinkShape& shape) {
    return std::accumulate(shape.events.begin(), shape.events.end(), std::int64_t{0},
                           [](std::int64_t sum, const FaultEvent& e) {
                               return sum + (e.options.is_object() ? e.options.value("kill_restart_nodes", 1) : 1);
                           });
}

/// The search from four_crashes() (every event started before the
/// violation) with `counts`, candidates judged by `fails`; `steps` gets
/// each candidate's step.
SearchResult search(const std::function<bool(const ShrinkShape&)>& fails, std::vector<std::string>& steps,
                    const CountOptions& counts = kKillRestart);

/// Four crash-restarts 300 ms apart, options as a seeded run records them.
ShrinkShape four_crashes() {
    ShrinkShape shape{{}, 5, 1, 20};
    for (int id = 1; id <= 4; ++id)
        shape.events.push_back(
            event(id, "kill-restart", 1000 + 300 * id, {{"kill_restart_nodes", 1}, {"restart_delay_ms", 0}}));
    return shape;
}

SearchResult search(const std::function<bool(const ShrinkShape&)>& fails, std::vector<std::string>& steps,
                    const CountOptions& counts) {
    return shrink_search(
        {four_crashes(), {1, 2, 3, 4}, {}, counts, kHold},
        [&](const ShrinkShape& shape, const std::string& step, const std::string&) -> std::optional<TrialVerdict> {
            steps.push_back(step);
            return TrialVerdict{fails(shape), {}};
        });
}

}  // namespace

TEST(ShrinkMerge, JoinsTheEventsOfAFaultWithinOneHoldIntoTheFirstWithTheirCountsAddedUp) {
    const std::vector<FaultEvent> events{event(2, "kill-restart", 1100, {{"restart_delay_ms", 0}}),
                                         event(3, "failover", 1200),
                                         event(5, "kill-restart", 1500, {{"kill_restart_nodes", 2}}),
                                         event(8, "kill-restart", 3100), event(9, "kill-restart", 3101)};
    const auto merged = merge_events(events, kKillRestart, kHold);
    ASSERT_TRUE(merged);
    ASSERT_EQ(merged->events.size(), 3u);
    const FaultEvent& joined = merged->events[0];
    EXPECT_EQ(joined.id, 2);
    EXPECT_EQ(joined.at_ms, 1100) << "at the first one's time";
    EXPECT_EQ(joined.pick, 14u);
    EXPECT_EQ(joined.options, (nlohmann::json{{"restart_delay_ms", 0}, {"kill_restart_nodes", 4}}))
        << "1 (unset) + 2 + 1 (unset), the first one's other options kept";
    EXPECT_EQ(merged->events[1].id, 3) << "another fault's event stays";
    EXPECT_EQ(merged->events[2].id, 9) << "more than one hold after the first: a crash of another holder's lock";
    ASSERT_EQ(merged->removed.size(), 2u);
    EXPECT_EQ(merged->words, "2 events: ids 5, 8 (kill-restart), merged into id 2 with kill_restart_nodes 4");
}

TEST(ShrinkMerge, AnUnsetCountIsTheSpecsAndNothingMergesWithoutTwoEventsOfAFaultInOneHold) {
    const CountOptions spec_has_two{{"kill-restart", {"kill_restart_nodes", 2}}};
    const auto merged = merge_events({event(1, "kill-restart", 0), event(2, "kill-restart", 10)}, spec_has_two, kHold);
    ASSERT_TRUE(merged);
    EXPECT_EQ(merged->events.at(0).options, (nlohmann::json{{"kill_restart_nodes", 4}}));
    EXPECT_FALSE(merge_events({event(1, "kill-restart", 0), event(2, "failover", 10)}, kKillRestart, kHold));
    EXPECT_FALSE(merge_events({event(1, "kill-restart", 0), event(2, "kill-restart", 2001)}, kKillRestart, kHold))
        << "not within one hold";
    EXPECT_FALSE(merge_events({event(1, "failover", 0), event(2, "failover", 10)}, kKillRestart, kHold))
        << "a fault without a count option is never merged";
}

TEST(ShrinkMerge, AMergedCountIsAtMostTheTopologysNodes) {
    const CountOptions three_nodes{{"kill-restart", {"kill_restart_nodes", 2, 3}}};
    const auto merged = merge_events({event(1, "kill-restart", 0), event(2, "kill-restart", 10)}, three_nodes, kHold);
    ASSERT_TRUE(merged);
    EXPECT_EQ(merged->events.at(0).options, (nlohmann::json{{"kill_restart_nodes", 3}})) << "2 + 2, on 3 nodes";
    EXPECT_EQ(merged->words,
              "1 event: id 2 (kill-restart), merged into id 1 with kill_restart_nodes 3 (the topology's nodes)");
    EXPECT_EQ(count_options_of(nlohmann::json::object(), 5).at("kill-restart").most, 5);
}

TEST(ShrinkMerge, TheRegistryNamesKillRestartsCountAndTheSpecsValue) {
    const CountOptions counts = count_options_of({{"kill_restart_nodes", 3}});
    ASSERT_TRUE(counts.count("kill-restart"));
    EXPECT_EQ(counts.at("kill-restart").name, "kill_restart_nodes");
    EXPECT_EQ(counts.at("kill-restart").unset, 3);
    EXPECT_EQ(count_options_of(nlohmann::json::object()).at("kill-restart").unset, 1);
    EXPECT_FALSE(counts.count("failover"));
}

TEST(ShrinkMerge, TheSearchTriesTheMergeBeforeDeltaDebuggingAndKeepsItWhenItFails) {
    std::vector<std::string> steps;
    // Fails with three crashes or more, however they come, and two workers.
    const auto result =
        search([](const ShrinkShape& shape) { return crashes(shape) >= 3 && shape.workers >= 2; }, steps);
    EXPECT_FALSE(result.stopped);
    ASSERT_FALSE(steps.empty());
    EXPECT_EQ(steps.front(), "merge") << "the first candidate (every event started before the violation)";
    EXPECT_EQ(std::count(steps.begin(), steps.end(), "merge"), 1) << "kept: not tried again after ddmin";
    EXPECT_EQ(std::count(steps.begin(), steps.end(), "events (ddmin)"), 0) << "one event left: nothing to drop";
    ASSERT_EQ(result.best.events.size(), 1u);
    EXPECT_EQ(result.best.events[0].id, 1);
    EXPECT_EQ(result.best.events[0].at_ms, 1300);
    EXPECT_EQ(result.best.events[0].options.at("kill_restart_nodes"), 3) << "4 merged, then 3 kept and 2 refused";
    EXPECT_EQ(std::count(steps.begin(), steps.end(), "targets per event"), 2);
    EXPECT_GT(std::find(steps.begin(), steps.end(), "targets per event"),
              std::find(steps.begin(), steps.end(), "workers"))
        << "after the workers: fewer racing clients, fewer lucky splits";
    EXPECT_EQ(result.best.workers, 2);
}

TEST(ShrinkMerge, ARefusedMergeIsTriedAgainAfterDeltaDebugging) {
    std::vector<std::string> steps;
    // Fails with three crashes or more, but not with four at once (say, the
    // merged event came too early): ddmin keeps three singles, then the
    // merge of those three is kept.
    const auto result = search(
        [](const ShrinkShape& shape) {
            return crashes(shape) >= 3 && shape.events.front().at_ms > 1300 && shape.workers >= 2;
        },
        steps);
    EXPECT_FALSE(result.stopped);
    EXPECT_EQ(std::count(steps.begin(), steps.end(), "merge"), 2);
    const auto second = std::find(std::find(steps.begin(), steps.end(), "merge") + 1, steps.end(), "merge");
    EXPECT_EQ(std::find(second, steps.end(), "events (ddmin)"), steps.end()) << "after delta debugging";
    EXPECT_GT(std::find(steps.begin(), steps.end(), "workers"), second) << "before the workers";
    ASSERT_EQ(result.best.events.size(), 1u);
    EXPECT_EQ(result.best.events[0].id, 2) << "ddmin dropped id 1 (ids 2-4 still fail); the merge keeps the first left";
    EXPECT_EQ(result.best.events[0].at_ms, 1600);
    EXPECT_EQ(result.best.events[0].options.at("kill_restart_nodes"), 3);
    EXPECT_EQ(result.best.workers, 2);
}

TEST(ShrinkMerge, AMergeThatDoesNotFailLeavesTheEventsAndIsNotTriedTwice) {
    std::vector<std::string> steps;
    // Fails only with at least two events (a merged candidate has one).
    const auto result = search([](const ShrinkShape& shape) { return shape.events.size() >= 2; }, steps);
    EXPECT_EQ(std::count(steps.begin(), steps.end(), "merge"), 2) << "four events, then the two ddmin left";
    EXPECT_EQ(std::count(steps.begin(), steps.end(), "targets per event"), 0) << "one target each already";
    ASSERT_EQ(result.best.events.size(), 2u);
    for (const auto& e : result.best.events) EXPECT_EQ(e.options.at("kill_restart_nodes"), 1);
}

TEST(ShrinkMerge, NoMergeWithoutACountOption) {
    std::vector<std::string> steps;
    search([](const ShrinkShape& shape) { return shape.events.size() >= 2; }, steps, {});
    EXPECT_EQ(std::count(steps.begin(), steps.end(), "merge"), 0);
}
