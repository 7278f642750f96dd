// Integration tests of the Redis topologies and server faults (issue 4): each
// scenario against real redis-server / redis-sentinel processes reaches the
// verdict it expects, records its faults as nemesis ops with targets, and
// leaves nothing behind. Run times are cut to stay within CI's budget.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "tests/support/integration_helpers.hpp"

using namespace lockcheck::testing;

namespace {

/// Checks the run recorded `kind` faults that name their targets, healed.
void expect_faults_with_targets(const RunOutcome& run, const std::string& kind) {
    const auto started = nemesis_ops(run, "start-fault", "info");
    const auto stopped = nemesis_ops(run, "stop-fault", "info");
    ASSERT_FALSE(started.empty()) << "no " << kind << " fault was recorded";
    bool hit = false;
    for (const auto& op : started) {
        EXPECT_EQ(op["value"]["fault"], kind);
        if (op["value"].contains("targets") && !op["value"]["targets"].empty()) hit = true;
    }
    EXPECT_TRUE(hit) << "no " << kind << " fault named its targets";
    EXPECT_GE(stopped.size() + 1, started.size()) << "every fault but the last one (cut by the end) is healed";
}

}  // namespace

TEST(RedisTopologies, SentinelFailoverGrantsTheLockTwiceWithinTheLease) {
    // Rule: room for several failovers, ended once the expectation is met (about 5 s in, at most 60 s):
    // one failover alone misses the overlap when the old primary's holder releases just as the replica is
    // promoted, and under load the first failover may strike late in the run.
    auto run = run_lockcheck("failover",
                             {"run", scenario("redis-failover-lock-loss"), "--time-limit", "60", "--stop-on-decided"});
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_GE(stats(run, "mutual-exclusion")["within_lease"].get<int>(), 1) << run.output;
    EXPECT_EQ(run.results["expectation"]["matched"], true) << run.results["expectation"].dump();
    expect_faults_with_targets(run, "failover");
    EXPECT_TRUE(std::filesystem::exists(run.run_dir / "nodes" / "s1" / "sentinel.conf"));
    expect_nothing_left(run);
}

TEST(RedisTopologies, RedlockCrashRestartWithoutPersistenceOverlapsWithinTheLease) {
    auto run = run_until_decided("redlock-crash", scenario("redlock-crash-restart"), 40);
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_GE(stats(run, "mutual-exclusion")["within_lease"].get<int>(), 1) << run.output;
    EXPECT_EQ(run.results["expectation"]["matched"], true) << run.results["expectation"].dump();
    expect_faults_with_targets(run, "kill-restart");
    expect_nothing_left(run);
}

TEST(RedisTopologies, KillRestartNodesKillsThatManyOfTheHoldersNodesAtOnce) {
    // One event with kill_restart_nodes 3 (what lockcheck shrink's merge step
    // makes of three crashes): three distinct nodes of the lock, restarted together.
    auto spec = nlohmann::json::parse(read_file(scenario("redlock-crash-restart")));
    spec["workers"] = 2;
    spec["time_limit_s"] = 4;
    spec["schedule"] = {{{"fault", "kill-restart"},
                         {"at_ms", 1000},
                         {"duration_ms", 0},
                         {"pick", 3},
                         {"options", {{"kill_restart_nodes", 3}}}}};
    const auto spec_file = fresh_store("redlock-crash-three-spec") / "spec.json";
    std::ofstream(spec_file) << spec.dump();
    auto run = run_lockcheck("redlock-crash-three", {"run", spec_file.string()});
    const auto started = nemesis_ops(run, "start-fault", "info");
    const auto stopped = nemesis_ops(run, "stop-fault", "info");
    ASSERT_EQ(started.size(), 1u) << run.output;
    const auto targets = started[0]["value"]["targets"].get<std::vector<std::string>>();
    EXPECT_EQ(std::set<std::string>(targets.begin(), targets.end()).size(), 3u) << started[0].dump();
    ASSERT_EQ(stopped.size(), 1u) << "restarted together: " << run.output;
    EXPECT_EQ(stopped[0]["value"]["targets"], started[0]["value"]["targets"]);
    expect_nothing_left(run);
}

TEST(RedisTopologies, RedlockDelayedRestartKeepsLeasesApart) {
    auto run = run_lockcheck("redlock-delayed", {"run", scenario("redlock-delayed-restart"), "--time-limit", "12"});
    EXPECT_EQ(stats(run, "mutual-exclusion")["within_lease"].get<int>(), 0) << run.output;
    EXPECT_EQ(run.results["expectation"]["matched"], true) << run.results["expectation"].dump();
    expect_faults_with_targets(run, "kill-restart");
    // The restart (stop-fault) comes restart_delay_ms = 1.2 x 3000 ms after the kill.
    const auto started = nemesis_ops(run, "start-fault", "info");
    const auto stopped = nemesis_ops(run, "stop-fault", "info");
    ASSERT_FALSE(stopped.empty());
    EXPECT_GE(stopped[0]["time"].get<std::int64_t>() - started[0]["time"].get<std::int64_t>(), 3'600'000'000LL);
    EXPECT_GE(stats(run, "mutual-exclusion")["sessions"].get<int>(), 3) << "the lock kept working meanwhile";
    expect_nothing_left(run);
}

TEST(RedisTopologies, RedlockClockJumpOverlapsWithinTheLease) {
    auto run = run_until_decided("redlock-clock", scenario("redlock-clock-jump"), 40);
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_GE(stats(run, "mutual-exclusion")["within_lease"].get<int>(), 1) << run.output;
    EXPECT_EQ(run.results["expectation"]["matched"], true) << run.results["expectation"].dump();
    expect_faults_with_targets(run, "clock-skew");
    EXPECT_TRUE(std::filesystem::exists(run.run_dir / "nodes" / "n1" / "clock-offset"));
    expect_nothing_left(run);
}

TEST(RedisTopologies, ClockJumpOnOneRedisExpiresTheLockWithinItsLease) {
    auto run = run_until_decided("redis-clock", scenario("redis-clock-jump"), 30);
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_GE(stats(run, "mutual-exclusion")["within_lease"].get<int>(), 1) << run.output;
    expect_faults_with_targets(run, "clock-skew");
    expect_nothing_left(run);
}

TEST(RedisTopologies, PartitionOfTheIndependentNodesIsHealedAndLeavesNothing) {
    auto run = run_lockcheck("partition", {"run", scenario("redlock-crash-restart"), "--nemesis",
                                           "partition,packet-loss", "--time-limit", "8"});
    EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.output;
    EXPECT_FALSE(nemesis_ops(run, "start-fault", "info").empty()) << run.output;
    EXPECT_TRUE(std::filesystem::exists(run.run_dir / "nodes" / "n1" / "firewall.rules") ||
                std::filesystem::exists(run.run_dir / "nodes" / "n2" / "firewall.rules"));
    expect_nothing_left(run);
}

TEST(RedisTopologies, NetworkFaultsWithoutNamespacesAreOneClearError) {
    // packet-loss needs namespaces everywhere; partition on a topology whose
    // peers do not talk through the fault proxy (etcd) needs them too.
    for (const auto& [spec, fault] :
         {std::pair{"redlock-crash-restart", "packet-loss"}, std::pair{"etcd-leader-partition", "partition"}}) {
        const auto store = fresh_store(std::string("loopback-") + fault);
        auto child = start_lockcheck(
            store, {"run", scenario(spec), "--nemesis", fault, "--network", "loopback", "--time-limit", "5"});
        auto run = finish(*child, store);
        EXPECT_EQ(run.exit_code, 254) << run.output;
        EXPECT_NE(run.output.find(std::string("fault '") + fault +
                                  "' needs network namespaces, which this run was told not to use"),
                  std::string::npos)
            << run.output;
        EXPECT_TRUE(run.run_id.empty()) << "refused before a run existed, yet run " << run.run_id << " was created";
        EXPECT_FALSE(std::filesystem::exists(store / "runs")) << "a refused run records nothing";
    }
}

namespace {

/// The peer links' totals the run logged at its end ("peer links: F faces, C
/// connections, K cuts caught N open connections, R cut rules left").
struct PeerLinkTotals {
    long faces = -1, connections = -1, cuts = -1, caught = -1, left = -1;
};
PeerLinkTotals peer_link_totals(const RunOutcome& run) {
    const auto log = read_file(run.run_dir / "lockcheck.log");
    std::smatch m;
    const std::regex line(
        R"(peer links: (\d+) faces, (\d+) connections, (\d+) cuts caught (\d+) open connections, (\d+) cut rules left)");
    if (!std::regex_search(log, m, line)) {
        ADD_FAILURE() << "no peer link totals in lockcheck.log";
        return {};
    }
    return {std::stol(m[1]), std::stol(m[2]), std::stol(m[3]), std::stol(m[4]), std::stol(m[5])};
}

/// Every sentinel's log (nodes/sN/server.log), joined.
std::string sentinel_logs(const RunOutcome& run) {
    std::string logs;
    for (const char* s : {"s1", "s2", "s3"}) logs += read_file(run.run_dir / "nodes" / s / "server.log");
    return logs;
}

}  // namespace

TEST(RedisTopologies, LoopbackFailoverCutsThePrimarysPeerLinksUntilSentinelPromotesAReplica) {
    auto run = run_until_decided("failover-loopback", scenario("redis-failover-loopback"), 60);
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_NE(run.output.find("note: no network namespaces"), std::string::npos) << "a loopback run";
    EXPECT_GE(stats(run, "mutual-exclusion")["within_lease"].get<int>(), 1) << run.output;
    EXPECT_EQ(run.results["expectation"]["matched"], true) << run.results["expectation"].dump();
    expect_faults_with_targets(run, "failover");
    const auto totals = peer_link_totals(run);
    EXPECT_EQ(totals.faces, 6) << "one face per server and sentinel";
    EXPECT_GE(totals.cuts, 1);
    EXPECT_GE(totals.caught, 3) << "the cut held the replicas' and the sentinels' open links to the primary";
    EXPECT_EQ(totals.left, 0) << "healed";
    const auto logs = sentinel_logs(run);
    EXPECT_NE(logs.find("+switch-master"), std::string::npos) << "Sentinel named a new primary";
    EXPECT_FALSE(std::filesystem::exists(run.run_dir / "nodes" / "n1" / "firewall.rules")) << "no iptables";
    expect_nothing_left(run);
}

TEST(RedisTopologies, LoopbackPartitionOfTheSentinelClusterIsHealedAndLeavesNothing) {
    auto run = run_lockcheck("partition-loopback", {"run", scenario("redis-failover-loopback"), "--nemesis",
                                                    "partition", "--time-limit", "12"});
    EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.output;
    expect_faults_with_targets(run, "partition");
    const auto totals = peer_link_totals(run);
    EXPECT_EQ(totals.faces, 6);
    EXPECT_GE(totals.cuts, 1);
    EXPECT_GE(totals.caught, 1) << "a node of the sentinel cluster always has open peer links";
    EXPECT_EQ(totals.left, 0) << "healed";
    expect_nothing_left(run);
}
