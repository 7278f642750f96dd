// Runs with runtime ssh against real sshd "hosts" (tests/support/ssh_test_hosts.hpp:
// one network namespace and one mount namespace each, the run's store hidden
// from them, so every file a server needs must have been uploaded, which the
// first test checks), label remote: a holder pause on redis-single and on a
// ZooKeeper ensemble is invalid, and so is a Sentinel failover (within the
// lease, iptables on the primary's host) and a clock jump of Redis (the clock
// library and the offset file uploaded, the offset rewritten on the host;
// the directory of the library is hidden from the host too); a crash-restart of Redis hands out
// an id twice; kill -9 of the controller leaves no process that ssh started,
// and `lockcheck clean` after it removes the run's ssh state; an unreachable
// host, a host without the server binary and a refused key are one line each
// naming the node, exit 255, nothing left behind.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <thread>

#include "tests/support/integration_helpers.hpp"
#include "tests/support/ssh_test_hosts.hpp"

namespace fs = std::filesystem;
using namespace lockcheck;
using namespace lockcheck::testing;

namespace {

constexpr auto kSessionsEnd = std::chrono::seconds(10);

/// Adds a gtest failure when a process that ssh started is still on a host.
void expect_nothing_left_on(const SshTestHosts& hosts) {
    const auto left = hosts.processes_left(kSessionsEnd);
    EXPECT_TRUE(left.empty()) << left.size() << " process(es) that ssh started are still on the hosts, e.g. pid "
                              << (left.empty() ? 0 : left.front());
}

/// Runs `args` + --runtime ssh --hosts <host_list> in `store` (which the hosts see empty).
RunOutcome run_on(const fs::path& store, std::vector<std::string> args, const nlohmann::json& host_list) {
    const auto file = SshTestHosts::write_hosts_file(store / "hosts.json", host_list);
    args.insert(args.end(), {"--runtime", "ssh", "--hosts", file.string()});
    auto controller = start_lockcheck(store, args);
    return finish(*controller, store);
}

/// Runs `args` on `count` fresh hosts (which see the store empty) and
/// expects exit 1 (invalid), the scenario's expectation met, and nothing left
/// here or on the hosts.
/// `hidden`: more directories the hosts see empty.
RunOutcome expect_invalid_on_hosts(const std::string& test, int count, const std::vector<std::string>& args,
                                   std::vector<fs::path> hidden = {}) {
    const auto store = fresh_store(test);
    hidden.push_back(store);
    const SshTestHosts hosts(count, hidden);
    auto run = run_on(store, args, hosts.hosts());
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_NE(run.output.find("scenario expectation: met"), std::string::npos) << run.output;
    expect_nothing_left(run);
    expect_nothing_left_on(hosts);
    return run;
}

/// The one line of a run that could not start a node, checked: exit 255, the line names node n1.
void expect_one_line_for_n1(const RunOutcome& run, const std::string& reason) {
    EXPECT_EQ(run.exit_code, 255) << run.output;
    const auto error = run.output.find("lockcheck: error: ");
    ASSERT_NE(error, std::string::npos) << run.output;
    const std::string line = run.output.substr(error, run.output.find('\n', error) - error);
    EXPECT_NE(line.find("node n1: "), std::string::npos) << line;
    EXPECT_NE(line.find(reason), std::string::npos) << line;
    EXPECT_EQ(std::count(run.output.begin() + static_cast<long>(error), run.output.end(), '\n'), 1) << run.output;
}

/// Runs redis-holder-pause on one host that `break_host` spoils (it returns
/// the reason the error line must give): one line naming node n1 and the
/// reason, exit 255, nothing left here or on the host.
void expect_refused_on_one_host(
    const std::string& test,
    const std::function<std::string(const SshTestHosts& hosts, nlohmann::json& host)>& break_host) {
    const auto store = fresh_store(test);
    const SshTestHosts hosts(1, {store});
    auto list = hosts.hosts();
    const std::string reason = break_host(hosts, list[0]);
    const auto run = run_on(store, {"run", scenario("redis-holder-pause")}, list);
    expect_one_line_for_n1(run, reason);
    expect_nothing_left(run);
    expect_nothing_left_on(hosts);
}

}  // namespace

TEST(SshRun, TheHostsDoNotSeeTheStoreSoFilesMustBeUploaded) {
    const auto store = fresh_store("ssh-hidden-store");
    std::ofstream(store / "marker") << "here";
    const SshTestHosts hosts(1, {store});
    EXPECT_TRUE(fs::exists(store / "marker"));
    EXPECT_FALSE(hosts.sees(0, store / "marker")) << "the host shares the controller's view of the store";
    EXPECT_TRUE(hosts.sees(0, "/usr/bin/redis-server")) << "the host does not see this machine's servers";
}

TEST(SshRun, RedisHolderPauseIsInvalid) {
    const auto run = expect_invalid_on_hosts("ssh-redis-holder-pause", 1,
                                             {"run", scenario("redis-holder-pause"), "--time-limit", "8"});
    EXPECT_NE(read_file(run.run_dir / "lockcheck.log").find("network: hosts (runtime ssh)"), std::string::npos);
}

TEST(SshRun, ACrashRestartOfRedisLosesIds) {
    // kill-restart: SIGKILL of the server's process group on its host, then a new wrapper.
    const auto run =
        expect_invalid_on_hosts("ssh-redis-crash-restart", 1, {"run", scenario("redis-ids-crash-restart")});
    EXPECT_NE(run.output.find("duplicate-id"), std::string::npos) << run.output;
}

TEST(SshRun, ZooKeeperHolderPauseIsInvalid) {
    expect_invalid_on_hosts("ssh-zk-holder-pause", 3, {"run", scenario("zk-holder-pause"), "--time-limit", "12"});
}

TEST(SshRun, SentinelFailoverIsInvalidWithinTheLease) {
    // The failover cuts the primary off with iptables on its host. Up to 60 s, ended once met: the
    // scenario's 20 s can hold too few failovers on a loaded machine (rule: room for several failovers).
    const auto run = expect_invalid_on_hosts(
        "ssh-sentinel-failover", 6,
        {"run", scenario("redis-failover-lock-loss"), "--time-limit", "60", "--stop-on-decided"});
    EXPECT_NE(run.output.find("overlap-within-lease"), std::string::npos) << run.output;
}

TEST(SshRun, AClockJumpOfRedisIsInvalid) {
    // The host sees neither the store (the node's offset file) nor the build
    // directory (the clock library beside lockcheck): both must be uploaded.
    // Only a jump of the host's offset file expires the holder's key early.
    const fs::path build = fs::path(LOCKCHECK_BINARY).parent_path();
    ASSERT_TRUE(fs::exists(build / "libclockshift.so"));
    const auto run = expect_invalid_on_hosts("ssh-redis-clock-jump", 1, {"run", scenario("redis-clock-jump")}, {build});
    EXPECT_NE(run.output.find("overlap-within-lease"), std::string::npos) << run.output;
    EXPECT_NE(read_file(run.run_dir / "history.jsonl").find(R"({"fault":"clock-skew","id":1,"targets":["n1"]})"),
              std::string::npos)
        << "no clock jump of n1 was injected";
}

TEST(SshRun, KillNineOfTheControllerLeavesNoProcessAndCleanRemovesTheRest) {
    const auto store = fresh_store("ssh-kill-clean");
    const SshTestHosts hosts(1, {store});
    const auto file = SshTestHosts::write_hosts_file(store / "hosts.json", hosts.hosts());
    auto controller = start_lockcheck(store, {"run", scenario("redis-holder-pause"), "--time-limit", "30", "--runtime",
                                              "ssh", "--hosts", file.string()});
    // Killed once its workers run (the output names their client): the server runs on the host then.
    for (int i = 0; i < 400 && read_file(store / "output.txt").find("client: ") == std::string::npos; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ASSERT_NE(read_file(store / "output.txt").find("client: "), std::string::npos) << read_file(store / "output.txt");
    ASSERT_FALSE(hosts.processes_started_by_ssh(0).empty()) << "no server on the host before kill -9";
    kill_controller_only(*controller);
    expect_nothing_left_on(hosts);
    const auto cleaned = run_clean(store);
    const auto run = latest_run(store);
    EXPECT_NE(cleaned.find(run.run_id + ".ssh"), std::string::npos) << cleaned;
    expect_nothing_left(run);
    expect_nothing_left_on(hosts);
}

TEST(SshRun, AnUnreachableHostNamesTheNodeAndLeavesNothing) {
    expect_refused_on_one_host("ssh-unreachable", [](const SshTestHosts& hosts, nlohmann::json& host) {
        host["address"] = hosts.unreachable_address();
        return "cannot log in to root@" + hosts.unreachable_address() + " port 22";
    });
}

TEST(SshRun, ARefusedKeyNamesTheNodeAndLeavesNothing) {
    expect_refused_on_one_host("ssh-refused-key", [](const SshTestHosts& hosts, nlohmann::json& host) {
        host["key"] = hosts.refused_key().string();
        return std::string("Permission denied");
    });
}

TEST(SshRun, AHostWithoutTheServerNamesTheNodeAndLeavesNothing) {
    expect_refused_on_one_host("ssh-no-server", [](const SshTestHosts& hosts, nlohmann::json&) {
        hosts.hide_file(0, "/usr/bin/redis-server");
        return std::string("redis-server is not on this host (lockcheck installs nothing on hosts)");
    });
}

TEST(SshRun, FewerHostsThanNodesIsOneLine) {
    const auto store = fresh_store("ssh-too-few-hosts");
    const SshTestHosts hosts(1, {store});
    const auto run = run_on(store, {"run", scenario("zk-holder-pause")}, hosts.hosts());
    EXPECT_EQ(run.exit_code, 254) << run.output;
    EXPECT_NE(run.output.find("lists 1 host(s), but topology zookeeper has 3 nodes"), std::string::npos) << run.output;
    EXPECT_FALSE(fs::exists(store / "latest")) << "a refused run left a run directory";
}
