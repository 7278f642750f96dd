// Integration tests of the worker protocol with clients that are not ours:
// the Python and Node.js example clients (bring your own client) and a client
// that breaks the protocol on purpose. All against real redis-server.
#include <gtest/gtest.h>

#include "tests/support/integration_helpers.hpp"
#include "tests/support/misbehaving_worker.hpp"

namespace fs = std::filesystem;
using namespace lockcheck::testing;

namespace {

const std::string kSource = LOCKCHECK_SOURCE_DIR;

std::string python(const std::string& script_and_args) { return "/usr/bin/python3 " + kSource + "/" + script_and_args; }

}  // namespace

TEST(WorkerProtocol, PythonSafeClientHasOnlyLeaseExpiredOverlaps) {
    auto run = run_until_decided("py-safe", kSource + "/examples/python/redis-python-safe.json", 60,
                                 {"--client-cmd", python("examples/python/redis_lock_safe.py")});
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_GE(stats(run, "mutual-exclusion")["lease_expired"].get<int>(), 1);
    EXPECT_EQ(stats(run, "mutual-exclusion")["within_lease"].get<int>(), 0);
    EXPECT_EQ(run.results["expectation"]["matched"], true) << run.results["expectation"].dump();
    expect_nothing_left(run);
}

TEST(WorkerProtocol, NodeSafeClientReportsItsValidityAndHasOnlyLeaseExpiredOverlaps) {
    auto run = run_until_decided("node-safe", kSource + "/examples/node/redis-node-safe.json", 40,
                                 {"--client-cmd", "/usr/bin/node " + kSource + "/examples/node/redis_lock_safe.js"});
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_GE(stats(run, "mutual-exclusion")["lease_expired"].get<int>(), 1) << run.output;
    EXPECT_EQ(stats(run, "mutual-exclusion")["within_lease"].get<int>(), 0);
    EXPECT_EQ(stats(run, "mutual-exclusion")["late_grant"].get<int>(), 0);
    EXPECT_NE(read_file(run.run_dir / "history.jsonl").find(R"("type":"ok","valid_ms":)"), std::string::npos)
        << "its grants carry the validity it computed";
    EXPECT_EQ(run.results["expectation"]["matched"], true) << run.results["expectation"].dump();
    expect_nothing_left(run);
}

TEST(WorkerProtocol, PythonUnsafeClientHasOverlapsWithinTheLease) {
    auto run = run_until_decided("py-unsafe", kSource + "/examples/python/redis-python-unsafe.json", 60,
                                 {"--client-cmd", python("examples/python/redis_lock_unsafe.py")});
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_GE(stats(run, "mutual-exclusion")["within_lease"].get<int>(), 1)
        << "a release by DEL lets a third client in while the second still holds a valid lease";
    EXPECT_EQ(run.results["expectation"]["matched"], true) << run.results["expectation"].dump();
    expect_nothing_left(run);
}

// Regression (issue 15, item 15): `--client-cmd` ran as `sh -c "exec CMD"`, so a
// shell line failed, and the hello's client string was dropped. The pauses
// must still reach the client the shell started: lease-expired overlaps.
TEST(WorkerProtocol, AShellLineClientIsPausedAndNamedInEveryRecord) {
    auto run = run_lockcheck("py-shell", {"run", kSource + "/examples/python/redis-python-safe.json", "--client-cmd",
                                          "cd " + kSource +
                                              "/examples/python && PYTHONDONTWRITEBYTECODE=1 "
                                              "/usr/bin/python3 redis_lock_safe.py"});
    const std::string client = "python redis-py SET NX PX, compare-and-delete release";
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_GE(stats(run, "mutual-exclusion")["lease_expired"].get<int>(), 1) << "the pauses reached the client";
    EXPECT_EQ(run.results["run"]["client"], client);
    EXPECT_NE(run.output.find("client: " + client), std::string::npos) << run.output;
    EXPECT_NE(read_file(run.run_dir / "lockcheck.log").find("client: " + client), std::string::npos);
    EXPECT_NE(read_file(run.run_dir / "junit.xml").find("<property name=\"client\" value=\"" + client + "\"/>"),
              std::string::npos);
    EXPECT_NE(read_file(run.run_dir / "report.html").find(client), std::string::npos);
    expect_nothing_left(run);
}

// Regression (issue 28): a client whose every acquire is answered info got
// VALID and "scenario expectation: met". A run that tested nothing is unknown,
// exit 2, and every output says why in the same words.
TEST(WorkerProtocol, AClientThatIsNeverGrantedALockIsUnknownEverywhere) {
    auto run = run_lockcheck("never-granted",
                             {"run", kSource + "/examples/python/redis-python-safe.json", "--time-limit", "3",
                              "--nemesis", "none", "--client-cmd", python("tests/clients/never_granted_client.py")});
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_EQ(run.results["valid"], "unknown");
    const std::string reason = run.results.value("unknown_reason", "");
    EXPECT_EQ(reason.rfind("no acquire was granted in ", 0), 0u) << reason;
    EXPECT_NE(reason.find(" unknown, 0 refused): see workers/worker-"), std::string::npos) << reason;
    EXPECT_EQ(run.results["exercised"]["acquires_granted"], 0);
    EXPECT_NE(run.output.find("UNKNOWN: " + reason), std::string::npos) << run.output;
    EXPECT_NE(read_file(run.run_dir / "report.html").find(reason), std::string::npos);
    EXPECT_NE(read_file(run.run_dir / "junit.xml").find("unknown: " + reason), std::string::npos);
    expect_nothing_left(run);
}

class MisbehavingWorker : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(MisbehavingWorker, ItsOpBecomesIndeterminateAndItIsReplaced) {
    const auto [mode, reason] = GetParam();
    auto run = run_lockcheck("bad-" + mode, {"run", misbehaving_spec(mode)});
    expect_replaced_and_judged(run, mode, reason);
    expect_nothing_left(run);
}

INSTANTIATE_TEST_SUITE_P(Modes, MisbehavingWorker,
                         ::testing::Values(std::pair<std::string, std::string>{"garbage", "worker sent garbage"},
                                           std::pair<std::string, std::string>{"wrong-id", "worker answered id"},
                                           std::pair<std::string, std::string>{"crash", "worker exited"},
                                           std::pair<std::string, std::string>{"hang", "worker timed out"}),
                         [](const auto& param_info) {
                             std::string name = param_info.param.first;
                             std::erase(name, '-');
                             return name;
                         });

TEST(WorkerProtocol, ClientThatExitsBeforeInitIsOneErrorLine) {
    auto run = run_lockcheck("bad-start", {"run", misbehaving_spec("at-start")});
    EXPECT_EQ(run.exit_code, 255);
    EXPECT_NE(run.output.find("lockcheck: error: worker 0 (log "), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("exited before answering init"), std::string::npos) << run.output;
    expect_nothing_left(run);
}
