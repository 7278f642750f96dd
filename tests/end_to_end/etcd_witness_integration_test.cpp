// Integration tests of etcd's own record as a witness (checkers/server_witness.hpp),
// with the Python etcd mutex clients of examples/python on a real 3-member etcd:
// a queued grant to a waiter whose key had expired (etcd-io/etcd#11456) and a
// renew answered ok after etcd ended the lease are blamed on the client by
// etcd's revisions; the correct mutex gets neither, and no undecided overlap.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/integration_helpers.hpp"

using namespace lockcheck::testing;

namespace {

const std::string kSource = LOCKCHECK_SOURCE_DIR;

/// `lockcheck run examples/python/SPEC --client-cmd "python3 examples/python/CLIENT" ARGS...`.
RunOutcome run_example(const std::string& test, const std::string& spec, const std::string& client,
                       std::vector<std::string> args) {
    std::vector<std::string> all{"run", kSource + "/examples/python/" + spec, "--client-cmd",
                                 "/usr/bin/python3 " + kSource + "/examples/python/" + client};
    all.insert(all.end(), args.begin(), args.end());
    return run_lockcheck(test, std::move(all));
}

void expect_the_record_was_read(const RunOutcome& run) {
    ASSERT_TRUE(run.results.contains("witness")) << run.output;
    EXPECT_EQ(run.results["witness"]["read"], true) << run.results["witness"].dump();
    EXPECT_EQ(run.results["witness"]["server"], "etcd");
}

}  // namespace

// Rule: 45 s of holder pauses (3-4.5 s each, past the 2 s lease, about one
// every 5-7 s) give the blind client several renews after a pause.
TEST(EtcdWitness, ARenewAnsweredOkAfterEtcdEndedTheLeaseIsTheClients) {
    auto run = run_example("blind-renew", "etcd-python-blind-renew.json", "etcd_mutex_blind_renew.py",
                           {"--time-limit", "45"});
    EXPECT_EQ(run.exit_code, 1) << run.output;
    expect_the_record_was_read(run);
    const auto false_renews = violations_of(run, "renew-after-loss", "renew-after-expiry");
    ASSERT_GE(false_renews.size(), 1u) << run.output;
    const auto& details = false_renews[0]["details"];
    EXPECT_EQ(details["blame"], "your client: its renew answered ok after the server had ended its lease");
    EXPECT_LE(details["own_key"]["deleted"].get<long long>(), details["renew_revision"].get<long long>())
        << "the key was gone at or before the revision the renew's ok reported: " << details.dump();
    EXPECT_EQ(run.results["expectation"]["matched"], true) << run.results["expectation"].dump();
    expect_nothing_left(run);
}

// Rule: the same faults for 20 s; a renew answered TTL 0 fails, so no renew
// is ever answered ok after its lease ended.
TEST(EtcdWitness, TheMutexThatTrustsTheKeepAliveHasNoFalseRenew) {
    auto run = run_example("trusted-renew", "etcd-python-blind-renew.json", "etcd_mutex_safe.py",
                           {"--time-limit", "20", "--name", "etcd-python-trusted-renew"});
    expect_the_record_was_read(run);
    EXPECT_TRUE(violations_of(run, "renew-after-loss", "renew-after-expiry").empty()) << run.output;
    EXPECT_TRUE(violations_of(run, "renew-after-loss", "renew-after-loss").empty()) << run.output;
    EXPECT_EQ(stats(run, "mutual-exclusion")["lease_uncertain"].get<int>(), 0)
        << "etcd's record decides every overlap: " << run.output;
    expect_nothing_left(run);
}

// Rule: the example's waiter pauses for up to 40 s; each run of it measured
// 6-9 queued grants to an expired waiter.
TEST(EtcdWitness, AQueuedGrantToAWaiterWhoseKeyHadExpiredIsTheClients) {
    auto run = run_example("grant-without-own-key", "etcd-python-mutex-unsafe.json", "etcd_mutex_unsafe.py", {});
    EXPECT_EQ(run.exit_code, 1) << run.output;
    expect_the_record_was_read(run);
    const auto grants = violations_of(run, "mutual-exclusion", "grant-without-own-key");
    ASSERT_GE(grants.size(), 1u) << run.output;
    EXPECT_NE(grants[0]["details"]["blame"].get<std::string>().find("your client"), std::string::npos)
        << grants[0].dump();
    EXPECT_EQ(stats(run, "mutual-exclusion")["lease_uncertain"].get<int>(), 0) << run.output;
    EXPECT_EQ(run.results["expectation"]["matched"], true) << run.results["expectation"].dump();
    expect_nothing_left(run);
}
