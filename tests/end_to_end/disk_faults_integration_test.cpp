// The corrupt-file fault through the lockcheck binary, on a real Redis with
// appendfsync always (docs/nemesis.md, "Disks that lie"): cutting the
// holder's acknowledged grant off the end of the AOF while Redis is down
// makes it grant the lock again within the holder's lease, an overlap blamed
// on the server, whose report says its disk lost acknowledged writes; the
// same grant torn with aof-load-truncated no keeps Redis down, which is a
// node-not-restarted finding with Redis's own log line, not a harness error.
// On Redlock, kill_restart_nodes 3 cuts the grant off three of the lock's
// nodes at once: another client gets three within the holder's lease.
// And the disk-error fault: with appendfsync always a failed fsync makes
// Redis exit, and the healed disk gets it restarted with its grants.
#include <gtest/gtest.h>

#include <set>

#include "tests/support/integration_helpers.hpp"

using namespace lockcheck::testing;

TEST(DiskFaults, AnAofCutAtARecordBoundaryGrantsAHeldLockAgainBlamedOnTheServer) {
    auto run = run_until_decided("aof-truncated", scenario("redis-aof-truncated"), 40);
    EXPECT_EQ(run.exit_code, 1) << run.output;
    const auto within = violations_of(run, "mutual-exclusion", "overlap-within-lease");
    ASSERT_GE(within.size(), 1u) << run.output;
    EXPECT_EQ(within[0]["details"]["blame"], "the lock service or the recipe: it broke its promise");
    const auto starts = nemesis_ops(run, "start-fault", "info");
    ASSERT_GE(starts.size(), 1u);
    bool cut = false;
    for (const auto& op : starts)
        if (op["value"].contains("targets")) {
            const std::string what = op["value"]["targets"][1];
            EXPECT_NE(what.find("aof-incr appendonly.aof."), std::string::npos) << what;
            cut = cut || what.find("(1 record) off the end") != std::string::npos;
        }
    EXPECT_TRUE(cut) << "no event cut a whole record";
    const auto stops = nemesis_ops(run, "stop-fault", "info");
    ASSERT_GE(stops.size(), 1u);
    EXPECT_TRUE(stops[0]["value"]["restart_ms"].contains("n1")) << stops[0].dump();
    const auto page = read_file(run.run_dir / "report.html");
    EXPECT_NE(page.find("The server&#39;s disk lost writes it had acknowledged"), std::string::npos)
        << "the report names the disk";
    EXPECT_EQ(run.results["expectation"]["matched"], true) << run.results["expectation"].dump();
    expect_nothing_left(run);
}

TEST(DiskFaults, RedlockWithThreeOfItsNodesCutGrantsAHeldLockAgain) {
    auto run = run_until_decided("redlock-corrupt-majority", scenario("redlock-corrupt-majority"), 40);
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_GE(violations_of(run, "mutual-exclusion", "overlap-within-lease").size(), 1u) << run.output;
    bool three = false;
    for (const auto& op : nemesis_ops(run, "stop-fault", "info")) {
        if (!op["value"].contains("targets")) continue;  // no lock was held: nothing struck
        const auto& targets = op["value"]["targets"];
        ASSERT_EQ(targets.size() % 2, 0u) << "each node followed by what was done to its file: " << op.dump();
        std::set<std::string> nodes;
        for (std::size_t i = 0; i < targets.size(); i += 2) {
            nodes.insert(targets[i].get<std::string>());
            EXPECT_NE(targets[i + 1].get<std::string>().find("(1 record) off the end"), std::string::npos) << op.dump();
            EXPECT_TRUE(op["value"]["restart_ms"].contains(targets[i])) << "restarted together: " << op.dump();
        }
        EXPECT_EQ(nodes.size(), targets.size() / 2) << "distinct nodes: " << op.dump();
        three = three || nodes.size() == 3;
    }
    EXPECT_TRUE(three) << "no event struck three nodes of the lock";
    EXPECT_EQ(run.results["expectation"]["matched"], true) << run.results["expectation"].dump();
    expect_nothing_left(run);
}

TEST(DiskFaults, ATornAofWithLoadTruncatedNoIsANodeThatDidNotRestart) {
    auto run = run_lockcheck("aof-torn-refused", {"run", scenario("redis-aof-torn-refused")});
    EXPECT_EQ(run.exit_code, 0) << run.output;
    const auto down = violations_of(run, "liveness", "node-not-restarted");
    ASSERT_EQ(down.size(), 1u) << run.results["checkers"]["liveness"].dump();
    const std::string line = down[0]["description"];
    EXPECT_EQ(line.rfind("n1 did not restart after corrupt-file: ", 0), 0u) << line;
    EXPECT_NE(line.find("Unexpected end of file reading the append only file"), std::string::npos)
        << "Redis's own words: " << line;
    EXPECT_NE(run.output.find("1 node not restarted after a fault"), std::string::npos) << run.output;
    EXPECT_EQ(run.results["expectation"]["matched"], true) << run.results["expectation"].dump();
    expect_nothing_left(run);
}

TEST(DiskFaults, AFailedFsyncStopsRedisAlwaysAndTheHealRestartsItWithItsGrants) {
    // The scenario's whole 10 s: its expectation (valid) names no violation to stop at.
    auto run = run_lockcheck("disk-error-always", {"run", scenario("redis-disk-error-always")});
    EXPECT_EQ(run.exit_code, 0) << run.output;
    std::size_t struck = 0;
    for (const auto& op : nemesis_ops(run, "start-fault", "info"))
        if (op["value"].contains("targets")) {
            EXPECT_EQ(op["value"]["targets"], nlohmann::json({"n1", "fsync=eio write=ok"})) << op.dump();
            ++struck;
        }
    EXPECT_GE(struck, 1u) << run.output;
    std::size_t restarted = 0;
    for (const auto& op : nemesis_ops(run, "stop-fault", "info")) {
        EXPECT_FALSE(op["value"].contains("not_restarted")) << op.dump();
        if (op["value"].contains("restart_ms") && op["value"]["restart_ms"].contains("n1")) ++restarted;
    }
    EXPECT_GE(restarted, 1u) << "Redis exited under the fault and was started again at its heal";
    EXPECT_NE(read_file(run.run_dir / "nodes" / "n1" / "server.log")
                  .find("Can't persist AOF for fsync error when the AOF fsync policy is 'always'"),
              std::string::npos)
        << "Redis's own reason for exiting";
    EXPECT_TRUE(violation_kinds(run, "mutual-exclusion").empty()) << run.results["checkers"]["mutual-exclusion"].dump();
    EXPECT_EQ(run.results["expectation"]["matched"], true) << run.results["expectation"].dump();
    expect_nothing_left(run);
}
