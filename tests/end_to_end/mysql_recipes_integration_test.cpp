// Integration tests of mysql-for-update and mysql-stock-decrement on a real
// MariaDB server (mariadbd from Debian's packages): each runs its scenario
// briefly through the lockcheck binary and checks the evidence its verdict
// rests on, then that nothing of the run is left. About 40 s in all. Test
// names stay short: they name the store, and mysqld.sock's path must fit
// in 107 bytes.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/integration_helpers.hpp"

using namespace lockcheck::testing;

TEST(MysqlRecipes, ForUpdateInsideSurvivesAPausedHolder) {
    auto run = run_lockcheck("fu-in", {"run", scenario("mysql-for-update-inside"), "--time-limit", "10"});
    EXPECT_EQ(run.exit_code, 0) << run.output;
    ASSERT_TRUE(run.results.contains("checkers")) << "the run was checked (short store paths: mysqld.sock)";
    EXPECT_EQ(run.results["valid"], true);
    const auto& mutex = stats(run, "mutual-exclusion");
    EXPECT_EQ(mutex["overlaps"], 0) << mutex.dump();
    // The paused holder overlapped the next one, but its transaction was rolled back.
    EXPECT_GE(mutex["rolled_back"].get<int>(), 1) << mutex.dump();
    const auto& resource = stats(run, "resource");
    EXPECT_EQ(resource["lost_updates"], 0);
    EXPECT_GE(resource["worker_owned"]["writes_committed"].get<int>(), 10) << resource.dump();
    EXPECT_GE(run.results["run"]["faults"].get<int>(), 1);
    expect_nothing_left(run);
}

TEST(MysqlRecipes, ForUpdateOutsideLosesUpdatesUnderTheSamePause) {
    auto run = run_until_decided("fu-out", scenario("mysql-for-update-outside"), 40);
    EXPECT_EQ(run.exit_code, 1) << run.output;
    ASSERT_TRUE(run.results.contains("checkers")) << "the run was checked (short store paths: mysqld.sock)";
    EXPECT_EQ(run.results["valid"], false);
    EXPECT_GE(stats(run, "mutual-exclusion")["lease_expired"].get<int>(), 1);
    EXPECT_EQ(stats(run, "mutual-exclusion")["within_lease"], 0);
    EXPECT_GE(stats(run, "resource")["lost_updates"].get<int>(), 1);
    EXPECT_FALSE(stats(run, "resource").contains("worker_owned")) << "outside: the controller's register";
    expect_nothing_left(run);
}

TEST(MysqlRecipes, StockDecrementDoesNotOversellThroughACrash) {
    auto run = run_lockcheck("stock", {"run", scenario("mysql-stock-oversell"), "--time-limit", "10"});
    EXPECT_EQ(run.exit_code, 0) << run.output;
    ASSERT_TRUE(run.results.contains("checkers")) << "the run was checked (short store paths: mysqld.sock)";
    EXPECT_EQ(run.results["valid"], true);
    const auto& oversell = stats(run, "oversell");
    EXPECT_EQ(oversell["oversold"], 0) << oversell.dump();
    EXPECT_GE(oversell["sold"].get<int>(), 100) << oversell.dump();
    EXPECT_FALSE(oversell["keys"]["lock"]["final"].is_null()) << "the final stock was read";
    EXPECT_FALSE(run.results["checkers"].contains("mutual-exclusion")) << "not a lock: no lock checker judges it";
    EXPECT_GE(run.results["run"]["faults"].get<int>(), 1);
    expect_nothing_left(run);
}
