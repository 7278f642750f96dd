// Integration tests: the lockcheck binary against real mariadbd servers
// (mysql-single, mysql-replicated), as a user runs it. About 40 s of runs in total.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/support/integration_helpers.hpp"

using namespace lockcheck::testing;

namespace {

/// How many acquire invokes of the run's history carry a ttl_ms, and how many there are.
std::pair<int, int> acquires_with_ttl(const RunOutcome& run) {
    std::ifstream in(run.run_dir / "history.jsonl");
    int with = 0, all = 0;
    for (std::string line; std::getline(in, line);) {
        const auto op = nlohmann::json::parse(line);
        if (op.value("f", "") != "acquire" || op.value("type", "") != "invoke") continue;
        ++all;
        if (op.contains("ttl_ms")) ++with;
    }
    return {with, all};
}

}  // namespace

TEST(MysqlIntegration, CleanupJobBreaksALockWhoseHolderPausedPastTheTimeout) {
    auto run =
        run_until_decided("mysql-cleanup-pause", scenario("mysql-record-cleanup-pause"), 40);
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_EQ(run.results["valid"], false);
    EXPECT_GE(stats(run, "mutual-exclusion")["lease_expired"].get<int>(), 1);
    EXPECT_EQ(stats(run, "mutual-exclusion")["within_lease"].get<int>(), 0)
        << "the cleanup deletes a record only after ttl by the server's clock: never inside the lease";
    EXPECT_GE(stats(run, "resource")["lost_updates"].get<int>(), 1);
    const auto [with_ttl, acquires] = acquires_with_ttl(run);
    EXPECT_GT(acquires, 0);
    EXPECT_EQ(with_ttl, acquires) << "with cleanup, ttl_ms is a lease";
    EXPECT_TRUE(std::filesystem::exists(run.run_dir / "nodes" / "n1" / "server.log"));
    expect_nothing_left(run);
}

TEST(MysqlIntegration, NoFaultsIsValidAndALockWithoutLeaseIsJudgedStrictly) {
    auto run =
        run_lockcheck("mysql-calm", {"run", scenario("mysql-record-crash"), "--nemesis", "none", "--time-limit", "4"});
    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(run.results["valid"], true);
    EXPECT_GE(stats(run, "mutual-exclusion")["sessions"].get<int>(), 5);
    const auto [with_ttl, acquires] = acquires_with_ttl(run);
    EXPECT_GT(acquires, 0);
    EXPECT_EQ(with_ttl, 0) << "without cleanup the record has no lease: acquires are recorded without ttl_ms";
    EXPECT_EQ(run.results["checkers"]["linearizability"]["counts_toward_verdict"], true);
    EXPECT_EQ(run.results["checkers"]["liveness"]["violations"].size(), 0u) << "nothing stuck without faults";
    expect_nothing_left(run);
}

TEST(MysqlIntegration, KilledHolderWithoutCleanupLeavesAStuckLock) {
    // 8 s: a kill that lands just as its target releases misses; the next
    // comes 1-2 s later and must still leave 2 s of stuck lock before the end.
    auto run = run_lockcheck("mysql-crash", {"run", scenario("mysql-record-crash"), "--time-limit", "8"});
    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(run.results["expectation"]["matched"], true) << run.results["expectation"].dump();
    EXPECT_GE(stats(run, "liveness")["stuck"]["longest_ms"].get<double>(), 2000.0);
    EXPECT_EQ(run.results["checkers"]["liveness"]["violations"][0]["kind"], "stuck-lock");
    expect_nothing_left(run);
}

TEST(MysqlIntegration, ReplicaPromotedWhileTheOldPrimaryStillGrantsLocksBreaksThemWithinTheLease) {
    auto run = run_until_decided("mysql-promotion", scenario("mysql-replica-promotion"), 30);
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_GE(stats(run, "mutual-exclusion")["within_lease"].get<int>(), 1);
    std::ifstream in(run.run_dir / "history.jsonl");
    int promoted = 0;
    for (std::string line; std::getline(in, line);) {
        const auto op = nlohmann::json::parse(line);
        if (op.value("f", "") == "start-fault" && op.value("type", "") == "info" && op["value"].contains("targets"))
            promoted += op["value"]["targets"] == nlohmann::json{"n1", "n2"};
    }
    EXPECT_EQ(promoted, 1) << "one failover per run: n1 cut off, n2 promoted";
    expect_nothing_left(run);
}
