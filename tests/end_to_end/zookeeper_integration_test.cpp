// Integration tests: the lockcheck binary against a real ZooKeeper 3.8
// ensemble of three (each run starts it in ≈ 3-4 s). A holder paused past its
// session timeout loses its lock node: lease-expired overlaps, none within
// the lease, and the servers' transaction logs decide every overlap the
// history alone leaves undecided; with fencing, the czxid token keeps every
// update; a relative --store still gives each server its log4j
// configuration. Nothing of a run (JVMs, namespaces, links) may be left
// afterwards.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/support/integration_helpers.hpp"

namespace fs = std::filesystem;
using namespace lockcheck::testing;

// Rule: a test that asserts the expectation's classes runs until they are decided (run_until_decided), so it
// asserts nothing the expectation does not name. Whether an overlap is left undecided by the history (and so
// handed to the servers' record) depends on the machine's timing; the witness is held to deciding every one
// that is, and the deciding itself is proved on constructed logs (zk_witness_test).
TEST(ZooKeeperIntegration, HolderPausedPastItsSessionLosesTheLock) {
    auto run = run_until_decided("zk-pause", scenario("zk-holder-pause"), 60);
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_EQ(run.results["valid"], false);
    EXPECT_GE(stats(run, "mutual-exclusion")["lease_expired"].get<int>(), 1) << run.output;
    EXPECT_EQ(stats(run, "mutual-exclusion")["within_lease"].get<int>(), 0)
        << "the ensemble keeps its promise: a node goes only when its session has expired";
    EXPECT_GE(stats(run, "mutual-exclusion")["sessions"].get<int>(), 2) << "an overlap needs two holders";
    // The servers' own record: every server's transaction log, read after the workload. Each overlap here
    // follows a session the ensemble expired, and the next holder's grant was decided by a children list
    // whose pzxid is at or after that expiry, so the log decides every overlap the history leaves undecided
    // (how many that is, none included, is the machine's timing).
    const auto& witness = run.results["witness"];
    EXPECT_EQ(witness["server"], "zookeeper") << run.output;
    EXPECT_EQ(witness["read"], true) << witness.dump();
    EXPECT_GE(witness["events"].get<int>(), 10) << witness.dump();
    EXPECT_EQ(witness["decided"], witness["undecided"]) << witness.dump();
    EXPECT_EQ(witness["decided_as"].value(std::string("overlap-lease-expired"), 0), witness["decided"])
        << witness.dump();
    EXPECT_EQ(stats(run, "mutual-exclusion")["lease_uncertain"].get<int>(), 0) << run.output;
    EXPECT_TRUE(fs::exists(run.run_dir / "server-record.jsonl"));
    EXPECT_TRUE(fs::exists(run.run_dir / "nodes" / "n3" / "zoo.cfg"));
    EXPECT_TRUE(fs::exists(run.run_dir / "nodes" / "n1" / "server.log"));
    expect_nothing_left(run);
}

TEST(ZooKeeperIntegration, CzxidFencingLosesNoUpdate) {
    auto run = run_lockcheck("zk-fenced", {"run", scenario("zk-holder-pause-fenced"), "--time-limit", "30"});
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_GE(stats(run, "mutual-exclusion")["lease_expired"].get<int>(), 1) << run.output;
    EXPECT_EQ(stats(run, "mutual-exclusion")["within_lease"].get<int>(), 0);
    EXPECT_EQ(stats(run, "resource")["lost_updates"].get<int>(), 0);
    EXPECT_EQ(stats(run, "resource")["stale_writes_accepted"].get<int>(), 0);
    EXPECT_GE(stats(run, "resource")["fenced"].get<int>(), 1) << "the stale holder's czxid was rejected";
    expect_nothing_left(run);
}

TEST(ZooKeeperIntegration, ARelativeStoreStillGivesEachServerItsLogConfiguration) {
    // No faults: what is tested is where the servers find their files, not a verdict under load.
    auto run = run_lockcheck_with_relative_store(
        "zk-relative-store", {"run", scenario("zk-holder-pause"), "--nemesis", "none", "--time-limit", "5"});
    EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1) << "no verdict:\n" << run.output;
    EXPECT_TRUE(run.results.is_object()) << run.output;
    const auto log = read_file(run.run_dir / "nodes" / "n1" / "server.log");
    // Our log4j.properties: ISO 8601 times and the [myid:...] field; log4j without it logs nothing.
    EXPECT_NE(log.find("[myid:"), std::string::npos) << "log4j did not read its configuration:\n"
                                                     << log.substr(0, 2000);
    EXPECT_EQ(log.find("is relative"), std::string::npos) << "ZooKeeper was given a relative path:\n"
                                                          << log.substr(0, 2000);
    expect_nothing_left(run);
}
