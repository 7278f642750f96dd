// Integration tests of the worker protocol with clients that are not ours:
// the Python example clients (bring your own client) and a client that breaks
// the protocol on purpose. All against real redis-server.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/integration_helpers.hpp"

namespace fs = std::filesystem;
using namespace lockcheck::testing;

namespace {

const std::string kSource = LOCKCHECK_SOURCE_DIR;

std::string python(const std::string& script_and_args) { return "/usr/bin/python3 " + kSource + "/" + script_and_args; }

/// Counts completed ops whose error contains `text`.
int ops_with_error(const RunOutcome& run, const std::string& text) {
    std::ifstream in(run.run_dir / "history.jsonl");
    int count = 0;
    for (std::string line; std::getline(in, line);) {
        const auto op = nlohmann::json::parse(line);
        if (op.contains("error") && op["error"].get<std::string>().find(text) != std::string::npos) ++count;
    }
    return count;
}

/// The highest process number in the history (replacements get new ones).
int highest_process(const RunOutcome& run) {
    std::ifstream in(run.run_dir / "history.jsonl");
    int highest = -1;
    for (std::string line; std::getline(in, line);) {
        const auto op = nlohmann::json::parse(line);
        if (op["process"].is_number_integer()) highest = std::max(highest, op["process"].get<int>());
    }
    return highest;
}

/// A spec file for a short run of the misbehaving client.
std::string misbehaving_spec(const std::string& mode) {
    const auto path = fresh_store("spec-" + mode) / "spec.json";
    nlohmann::json spec{{"name", "misbehaving-" + mode},
                        {"recipe", "python-misbehaving"},
                        {"client_cmd", python("tests/clients/misbehaving_client.py " + mode)},
                        {"workers", 3},
                        {"time_limit_s", 6},
                        {"nemesis", nlohmann::json::array()},
                        {"op_timeout_ms", 1500},
                        {"fault_duration_ms", {100, 200}}};
    std::ofstream(path) << spec.dump();
    return path.string();
}

}  // namespace

TEST(WorkerProtocol, PythonSafeClientHasOnlyLeaseExpiredOverlaps) {
    auto run = run_lockcheck("py-safe", {"run", kSource + "/examples/python/redis-python-safe.json", "--client-cmd",
                                         python("examples/python/redis_lock_safe.py")});
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_GE(stats(run, "mutual-exclusion")["lease_expired"].get<int>(), 1);
    EXPECT_EQ(stats(run, "mutual-exclusion")["within_lease"].get<int>(), 0);
    EXPECT_EQ(run.results["expectation"]["matched"], true) << run.results["expectation"].dump();
    expect_nothing_left(run);
}

TEST(WorkerProtocol, PythonUnsafeClientHasOverlapsWithinTheLease) {
    auto run = run_lockcheck("py-unsafe", {"run", kSource + "/examples/python/redis-python-unsafe.json",
                                           "--client-cmd", python("examples/python/redis_lock_unsafe.py")});
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_GE(stats(run, "mutual-exclusion")["within_lease"].get<int>(), 1)
        << "a release by DEL lets a third client in while the second still holds a valid lease";
    EXPECT_EQ(run.results["expectation"]["matched"], true) << run.results["expectation"].dump();
    expect_nothing_left(run);
}

class MisbehavingWorker : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(MisbehavingWorker, ItsOpBecomesIndeterminateAndItIsReplaced) {
    const auto [mode, reason] = GetParam();
    auto run = run_lockcheck("bad-" + mode, {"run", misbehaving_spec(mode)});
    EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1) << "the run goes on and reaches a verdict\n" << run.output;
    EXPECT_GE(ops_with_error(run, reason), 1) << "the op in flight is completed with the reason";
    EXPECT_GE(highest_process(run), 3) << "replacements run under new process numbers";
    EXPECT_NE(read_file(run.run_dir / "lockcheck.log").find("replaced by worker"), std::string::npos);
    EXPECT_EQ(stats(run, "mutual-exclusion")["within_lease"].get<int>(), 0) << "no false overlaps from a dead worker";
    // A worker that hangs past its 1 s lease really is inside its critical section until the
    // controller kills it at op_timeout_ms (1.5 s): a lease-expired overlap then is a fact, as with
    // a GC pause. The other modes fail at once and must leave no overlap at all.
    if (mode != "hang") {
        EXPECT_EQ(stats(run, "mutual-exclusion")["overlaps"].get<int>(), 0);
    }
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
