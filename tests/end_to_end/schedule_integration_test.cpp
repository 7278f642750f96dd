// A spec with an explicit fault schedule (spec field `schedule`) runs exactly
// those faults at those times, with the real lockcheck binary and
// redis-server: nemesis-schedule.json is the schedule as given, and the
// history starts each fault at its at_ms. And what `lockcheck shrink` refuses.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/support/integration_helpers.hpp"

namespace fs = std::filesystem;
using namespace lockcheck::testing;

TEST(ExplicitSchedule, RunsExactlyThoseFaultsAtThoseTimes) {
    const auto store = fresh_store("explicit-schedule");
    const nlohmann::json schedule = {
        {{"id", 4}, {"fault", "pause-holder"}, {"at_ms", 800}, {"duration_ms", 300}, {"target_delay_ms", 10}, {"pick", 1}},
        {{"id", 9}, {"fault", "pause-holder"}, {"at_ms", 2500}, {"duration_ms", 300}, {"target_delay_ms", 10}, {"pick", 0}}};
    const nlohmann::json spec = {{"name", "explicit-schedule"}, {"recipe", "redis-set-nx-px"},
                                 {"topology", "redis-single"},  {"workers", 3},
                                 {"ttl_ms", 1000},              {"time_limit_s", 4},
                                 {"schedule", schedule}};
    const auto spec_file = store / "spec-in.json";
    std::ofstream(spec_file) << spec.dump();
    auto child = start_lockcheck(store, {"run", spec_file.string()});
    const auto run = finish(*child, store);
    ASSERT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.output;

    // The schedule the run wrote is the one given, every field as it was.
    const auto written = nlohmann::json::parse(read_file(run.run_dir / "nemesis-schedule.json"));
    ASSERT_EQ(written.size(), 2u) << written.dump();
    for (std::size_t i = 0; i < 2; ++i)
        for (const auto& [field, value] : schedule[i].items()) EXPECT_EQ(written[i][field], value) << i << " " << field;
    // The resolved spec keeps it, and names only its fault.
    const auto resolved = nlohmann::json::parse(read_file(run.run_dir / "spec.json"));
    EXPECT_EQ(resolved["nemesis"], nlohmann::json({"pause-holder"}));
    EXPECT_EQ(resolved["schedule"].size(), 2u);

    // The history: exactly these two faults (ids 4 and 9), each asked for at its at_ms.
    const auto starts = nemesis_ops(run, "start-fault", "invoke");
    ASSERT_EQ(starts.size(), 2u) << run.output;
    const std::int64_t at_ms[] = {800, 2500};
    const int ids[] = {4, 9};
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(starts[i]["value"]["id"], ids[i]);
        EXPECT_EQ(starts[i]["value"]["fault"], "pause-holder");
        const auto ms = starts[i]["time"].get<std::int64_t>() / 1'000'000;
        EXPECT_GE(ms, at_ms[i]) << "fault " << ids[i];
        EXPECT_LT(ms, at_ms[i] + 200) << "fault " << ids[i] << " started late";
    }
    expect_nothing_left(run);
}

TEST(ShrinkCommand, RefusesARunThatDidNotFailInOneLine) {
    const auto run = run_lockcheck("shrink-valid-run", {"run", scenario("redis-quick-no-faults"), "--time-limit", "2"});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    const auto store = fresh_store("shrink-valid-run-shrink");
    auto child = start_lockcheck(store, {"shrink", run.run_dir.string()});
    child->wait_for_exit(std::chrono::seconds(30));
    EXPECT_EQ(child->exit_status(), 254);
    const auto output = read_file(store / "output.txt");
    EXPECT_NE(output.find("did not fail (its verdict is true): only a failing run shrinks"), std::string::npos)
        << output;
    EXPECT_EQ(std::count(output.begin(), output.end(), '\n'), 1) << output;
}
