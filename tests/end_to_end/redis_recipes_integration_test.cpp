// Integration tests of the Redis recipes of issue 4 on a real redis-server:
// each runs a scenario briefly and checks the evidence its verdict rests on.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/integration_helpers.hpp"

using namespace lockcheck::testing;

TEST(RedisRecipes, DelUnsafeReleaseDeletesAnotherClientsLock) {
    auto run = run_until_decided("del-unsafe", scenario("redis-del-unsafe-pause"), 45);
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_EQ(run.results["valid"], false);
    EXPECT_GE(stats(run, "mutual-exclusion")["lease_expired"].get<int>(), 1);
    const auto foreign = violations_of(run, "release-ownership", "release-by-non-owner");
    ASSERT_GE(foreign.size(), 1u) << run.results["checkers"]["release-ownership"].dump();
    EXPECT_NE(foreign[0]["details"]["removed_owner"], foreign[0]["details"]["owner"]);
    EXPECT_GE(foreign[0]["ops"].size(), 3u) << "the release and the acquire of the lock it deleted";
    EXPECT_EQ(run.results["expectation"]["matched"], true) << run.results["expectation"].dump();
    expect_nothing_left(run);
}

TEST(RedisRecipes, SetnxExpireKilledBetweenTheCommandsLeavesAStuckLock) {
    auto run = run_lockcheck("setnx-expire", {"run", scenario("redis-setnx-expire-crash"), "--time-limit", "12"});
    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(run.results["valid"], true) << "a dead client's session must not count as an overlap";
    const auto stuck = violations_of(run, "liveness", "stuck-lock");
    ASSERT_EQ(stuck.size(), 1u) << run.results["checkers"]["liveness"]["stats"].dump();
    EXPECT_GE(stuck[0]["details"]["stuck_ms"].get<double>(), 1000.0) << "stuck for longer than any TTL";
    EXPECT_GE(run.results["run"]["faults"].get<int>(), 1);
    EXPECT_EQ(run.results["expectation"]["matched"], true) << run.results["expectation"].dump();
    expect_nothing_left(run);
}

TEST(RedisRecipes, FaultsThatFollowTheLockFindAReentrantHashLock) {
    // kill-restart strikes the node that holds the current lock; the
    // re-entrant recipe keeps its lock in a hash (one field per owner), which
    // the lock locator must see as well as a string key, or the fault never
    // strikes and the run is UNKNOWN.
    auto run = run_lockcheck("reentrant-kill", {"run", scenario("redis-reentrant-hash-pause"), "--nemesis",
                                                "kill-restart", "--time-limit", "8"});
    EXPECT_GE(run.results["run"]["faults"].get<int>(), 1) << run.output;
    EXPECT_NE(run.exit_code, 2) << "the fault struck, so the run decides: " << run.output;
    expect_nothing_left(run);
}
