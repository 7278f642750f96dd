// Integration tests: etcd-lease-lock on a real 3-member etcd cluster through
// the lockcheck binary (about 30 s of runs in all). Each checks the verdict in
// results.json and that nothing of the run (etcd process, namespace, link) is left.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/support/integration_helpers.hpp"

namespace fs = std::filesystem;
using namespace lockcheck::testing;

TEST(EtcdIntegration, HolderPausedPastItsLeaseIsInvalidWithLeaseExpiredOverlapsOnly) {
    auto run = run_until_decided("etcd-pause", scenario("etcd-holder-pause"), 45, {"--seed", "1"});
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_EQ(run.results["valid"], false);
    EXPECT_GE(stats(run, "mutual-exclusion")["lease_expired"].get<int>(), 1) << run.output;
    EXPECT_EQ(stats(run, "mutual-exclusion")["within_lease"].get<int>(), 0) << "a healthy etcd keeps its lease promise";
    expect_lease_expired_overlaps_only(run);
    EXPECT_TRUE(fs::exists(run.run_dir / "nodes" / "n3" / "server.log"));
    EXPECT_FALSE(fs::exists(run.run_dir / "nodes" / "n1" / "data")) << "the members' data dirs are removed";
    expect_nothing_left(run);
}

TEST(EtcdIntegration, LongHoldsKeptAliveWithoutFaultsAreValid) {
    auto run = run_lockcheck("etcd-calm", {"run", scenario("etcd-long-holds"), "--time-limit", "10"});
    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(run.results["valid"], true);
    EXPECT_GE(stats(run, "mutual-exclusion")["sessions"].get<int>(), 3) << run.output;
    const std::string history = read_file(run.run_dir / "history.jsonl");
    EXPECT_NE(history.find(R"("f":"renew","index")"), std::string::npos) << "holds past a third of the TTL renew";
    EXPECT_NE(history.find(R"("lease_ttl_s":2)"), std::string::npos) << "the granted lease is in the acquire's value";
    expect_nothing_left(run);
}
