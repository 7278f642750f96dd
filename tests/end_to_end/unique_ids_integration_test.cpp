// Integration tests of the id generators (capability "unique-ids") on real
// servers: redis-incr-ids on redis-server and redis-sentinel,
// mysql-auto-increment-ids on mariadbd, and the Snowflake generators (no
// server; client-clock-skew moves a worker's clock). Each runs a scenario briefly through
// the lockcheck binary, checks the evidence its verdict rests on, and that
// nothing of the run is left. Store names stay short: mysqld.sock's path must
// fit in 107 bytes.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/integration_helpers.hpp"

using namespace lockcheck::testing;

namespace {

/// Checks what every id run shows: only the unique-ids and liveness checkers
/// judged it, ids were issued, and the run's expectation held (a run whose
/// --nemesis replaced the scenario's is judged by its verdict alone).
void expect_an_id_run(const RunOutcome& run, int min_issued, bool expectation_applies = true) {
    ASSERT_TRUE(run.results.contains("checkers")) << run.output;
    EXPECT_FALSE(run.results["checkers"].contains("mutual-exclusion")) << "not a lock: no lock checker judges it";
    const auto& ids = stats(run, "unique-ids");
    EXPECT_GE(ids["issued"].get<int>(), min_issued) << ids.dump();
    EXPECT_TRUE(stats(run, "liveness")["latency_ms"].contains("generate-id")) << stats(run, "liveness").dump();
    ASSERT_TRUE(run.results.contains("expectation")) << run.output;
    const auto& expectation = run.results["expectation"];
    if (expectation_applies)
        EXPECT_EQ(expectation.value("matched", false), true) << expectation.dump();
    else
        EXPECT_EQ(expectation.value("applies", true), false) << expectation.dump();
}

/// Checks a run whose faults made the servers issue ids again: invalid
/// (exit 1), faults injected, and duplicates counted.
void expect_ids_issued_again(const RunOutcome& run, int min_issued) {
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_EQ(run.results["valid"], false);
    expect_an_id_run(run, min_issued);
    EXPECT_GE(run.results["run"]["faults"].get<int>(), 1) << "the fault found its target";
    EXPECT_GE(stats(run, "unique-ids")["duplicates"].get<int>(), 1) << stats(run, "unique-ids").dump();
}

}  // namespace

TEST(UniqueIds, RedisIncrWithoutFaultsIssuesEveryIdOnce) {
    auto run = run_lockcheck("ids-redis", {"run", scenario("redis-ids-no-faults"), "--time-limit", "5"});
    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(run.results["valid"], true);
    expect_an_id_run(run, 500);
    const auto& ids = stats(run, "unique-ids");
    EXPECT_EQ(ids["duplicates"], 0);
    EXPECT_EQ(ids["keys"].size(), 2u) << "two keys, two sequences: " << ids.dump();
    for (const auto& [key, figures] : ids["keys"].items()) {
        EXPECT_EQ(figures["lowest"], 1) << key;
        EXPECT_EQ(figures["distinct"], figures["issued"]) << key;
        EXPECT_GE(figures["highest"], figures["issued"]) << key;
    }
    expect_nothing_left(run);
}

TEST(UniqueIds, RedisCrashRestartWithoutPersistenceIssuesIdsAgain) {
    auto run = run_lockcheck("ids-crash", {"run", scenario("redis-ids-crash-restart"), "--time-limit", "6"});
    expect_ids_issued_again(run, 100);  // kill-restart found the counter's node
    const auto& duplicate = run.results["checkers"]["unique-ids"]["violations"].at(0);
    EXPECT_EQ(duplicate["kind"], "duplicate-id");
    EXPECT_EQ(duplicate["ops"].size(), 2u);
    EXPECT_LT(duplicate["details"]["first"]["time_ns"].get<double>(),
              duplicate["details"]["second"]["time_ns"].get<double>());
    expect_nothing_left(run);
}

TEST(UniqueIds, RedisSentinelFailoverIssuesIdsAgain) {
    // Measured at the scenario's 20 s: 5 runs of 5 invalid, 5,370 to 8,347
    // duplicates each; one failover suffices, so 10 s are enough.
    auto run = run_lockcheck("ids-failover", {"run", scenario("redis-ids-failover"), "--time-limit", "10"});
    expect_ids_issued_again(run, 500);
    expect_nothing_left(run);
}

TEST(UniqueIds, MysqlAutoIncrementWithoutFaultsIssuesEveryIdOnce) {
    auto run = run_lockcheck("ids-my", {"run", scenario("mysql-ids-crash"), "--time-limit", "5", "--nemesis", "none"});
    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(run.results["valid"], true);
    expect_an_id_run(run, 100, /*expectation_applies=*/false);
    const auto& ids = stats(run, "unique-ids");
    EXPECT_EQ(ids["duplicates"], 0);
    EXPECT_EQ(ids["indeterminate"], 0) << "no fault: every insert answered";
    expect_nothing_left(run);
}

TEST(UniqueIds, SnowflakeWhoseClockGoesBackIssuesItsIdsAgain) {
    // Measured at the scenario's 8 s (suite --repeat 10): 10 of 10 invalid,
    // the first duplicate 2.0 s in; the first jump comes after 1 to 1.5 s.
    auto run = run_lockcheck("ids-snowflake", {"run", scenario("snowflake-ids-clock-back"), "--time-limit", "5"});
    expect_ids_issued_again(run, 500);
    const auto& duplicate = run.results["checkers"]["unique-ids"]["violations"].at(0);
    EXPECT_EQ(duplicate["kind"], "duplicate-id");
    ASSERT_EQ(duplicate["ops"].size(), 2u) << "both ops are named";
    EXPECT_EQ(duplicate["details"]["first"]["process"], duplicate["details"]["second"]["process"])
        << "the generator whose clock went back repeated its own ids: " << duplicate.dump();
    EXPECT_LT(duplicate["details"]["first"]["op"].get<int>(), duplicate["details"]["second"]["op"].get<int>());
    EXPECT_NE(duplicate["description"].get<std::string>().find("was issued twice, to worker"), std::string::npos)
        << duplicate.dump();
    expect_nothing_left(run);
}

TEST(UniqueIds, GuardedSnowflakeWaitsOutItsClockAndIssuesEveryIdOnce) {
    auto run =
        run_lockcheck("ids-snowflake-g", {"run", scenario("snowflake-ids-guarded-clock-back"), "--time-limit", "5"});
    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(run.results["valid"], true);
    expect_an_id_run(run, 500);
    EXPECT_GE(run.results["run"]["faults"].get<int>(), 1) << "a worker's clock went back";
    EXPECT_EQ(stats(run, "unique-ids")["duplicates"], 0);
    expect_nothing_left(run);
}
