// The faults that act through the run's fault proxy (delay, slow-reply,
// blackhole, reset) in real runs on real redis-server: what each does to the
// run, and that the proxy leaves nothing behind, even after kill -9.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <thread>

#include "tests/support/integration_helpers.hpp"

using namespace lockcheck::testing;

namespace {

/// The proxy's totals the run logged at its end ("proxy: L links, C connections, R reset by faults, B bytes
/// discarded"); fails the test when the line is missing.
struct ProxyTotals {
    long links = -1, connections = -1, reset = -1, discarded = -1;
};
ProxyTotals proxy_totals(const RunOutcome& run) {
    const auto log = read_file(run.run_dir / "lockcheck.log");
    std::smatch m;
    const std::regex line(R"(proxy: (\d+) links, (\d+) connections, (\d+) reset by faults, (\d+) bytes discarded)");
    if (!std::regex_search(log, m, line)) {
        ADD_FAILURE() << "no proxy totals in lockcheck.log";
        return {};
    }
    return {std::stol(m[1]), std::stol(m[2]), std::stol(m[3]), std::stol(m[4])};
}

/// The TCP ports process `pid` listens on (ss -ltnp).
std::set<int> listening_ports(pid_t pid) {
    std::set<int> ports;
    FILE* ss = ::popen("ss -Hltnp 2>/dev/null", "r");
    if (!ss) return ports;
    char buffer[1024];
    const std::regex owner("pid=" + std::to_string(pid) + ",");
    const std::regex local(R"(\S+\s+\d+\s+\d+\s+\S+:(\d+)\s)");
    while (std::fgets(buffer, sizeof buffer, ss)) {
        const std::string row(buffer);
        std::smatch m;
        if (std::regex_search(row, owner) && std::regex_search(row, m, local)) ports.insert(std::stoi(m[1]));
    }
    ::pclose(ss);
    return ports;
}

/// Every TCP port anything listens on.
std::set<int> all_listening_ports() {
    std::set<int> ports;
    FILE* ss = ::popen("ss -Hltn 2>/dev/null", "r");
    if (!ss) return ports;
    char buffer[1024];
    const std::regex local(R"(\S+\s+\d+\s+\d+\s+\S+:(\d+)\s)");
    while (std::fgets(buffer, sizeof buffer, ss)) {
        const std::string row(buffer);
        std::smatch m;
        if (std::regex_search(row, m, local)) ports.insert(std::stoi(m[1]));
    }
    ::pclose(ss);
    return ports;
}

/// redlock-slow-reply with longer think times (1-2 s), so that the slowed
/// worker finds the keys free and collects majorities whose replies came late:
/// 2-3 such rounds in each of 5 runs, where the scenario's 0.3-0.8 s gave 0-2
/// (docs/recipes/redlock.md). `validity_check` as given.
nlohmann::json redlock_slow_reply_with_long_thinks(bool validity_check) {
    auto spec = nlohmann::json::parse(read_file(scenario("redlock-slow-reply")));
    spec["name"] = validity_check ? "redlock-slow-reply-long-thinks" : "redlock-slow-reply-unchecked";
    spec["recipe_options"] = {{"validity_check", validity_check}};
    spec["think_ms"] = {1000, 2000};
    spec.erase("expect");
    return spec;
}

/// Runs `spec` (written into a fresh directory) as test `test`.
RunOutcome run_spec(const std::string& test, const nlohmann::json& spec) {
    const auto path = fresh_store(test + "-spec") / "spec.json";
    std::ofstream(path) << spec.dump();
    return run_lockcheck(test, {"run", path.string()});
}

/// Every worker's log of `run`, concatenated.
std::string worker_logs(const RunOutcome& run) {
    std::string logs;
    for (const auto& entry : std::filesystem::directory_iterator(run.run_dir / "workers"))
        logs += read_file(entry.path());
    return logs;
}

}  // namespace

TEST(NetworkFaults, SlowReplyMakesSetNxPxHoldPastALeaseItLearnedOfLate) {
    auto run = run_until_decided("slow-reply", scenario("redis-slow-reply"), 90);
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_EQ(run.results["valid"], false);
    EXPECT_GE(stats(run, "mutual-exclusion")["lease_expired"].get<int>(), 1);
    EXPECT_EQ(stats(run, "mutual-exclusion")["within_lease"].get<int>(), 0);
    EXPECT_EQ(run.results["expectation"]["matched"], true) << run.results["expectation"].dump();
    const auto totals = proxy_totals(run);
    EXPECT_GE(totals.links, 2) << "a link per worker to the one node";
    EXPECT_EQ(totals.discarded, 0) << "slow-reply delays, it never drops";
    expect_nothing_left(run);
}

TEST(NetworkFaults, RedlocksValidityCheckRefusesTheLateGrants) {
    auto run = run_spec("redlock-checked", redlock_slow_reply_with_long_thinks(true));
    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(run.results["valid"], true);
    EXPECT_GE(run.results["run"]["faults"].get<int>(), 1);
    const auto logs = worker_logs(run);
    EXPECT_NE(logs.find("no validity left"), std::string::npos)
        << "a round whose replies came late had a majority and no validity left";
    EXPECT_EQ(logs.find("taken anyway"), std::string::npos) << "and was released, not taken";
    expect_nothing_left(run);
}

TEST(NetworkFaults, RedlockWithoutItsValidityCheckTakesTheLateGrants) {
    // Whether a late grant overlaps another holder depends on timing (4 of 5
    // runs here), so the test asserts the grants, not the overlaps: a grant
    // taken with no validity left is an expired-grant, overlap or none.
    auto run = run_spec("redlock-unchecked", redlock_slow_reply_with_long_thinks(false));
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_GE(stats(run, "expired-grant")["expired_grants"].get<int>(), 1) << run.output;
    const auto logs = worker_logs(run);
    EXPECT_NE(logs.find("taken anyway (validity_check false)"), std::string::npos)
        << "a round whose replies came after the TTL was taken as a grant";
    EXPECT_EQ(logs.find("releasing"), std::string::npos) << "no round was refused for want of validity";
    // The client reported what it knew: the late grants carry valid_ms <= 0,
    // so an overlap they cause is the client's late-grant, never the server's.
    const auto history = read_file(run.run_dir / "history.jsonl");
    EXPECT_TRUE(std::regex_search(history, std::regex(R"("type":"ok","valid_ms":(-[0-9]+|0)[,}])")))
        << "a grant taken with no validity left";
    EXPECT_EQ(stats(run, "mutual-exclusion")["within_lease"].get<int>(), 0) << run.output;
    if (stats(run, "mutual-exclusion")["overlaps"].get<int>() > 0) {  // a late grant that overlapped someone
        EXPECT_GE(stats(run, "mutual-exclusion")["late_grant"].get<int>(), 1) << run.output;
    }
    expect_nothing_left(run);
}

TEST(NetworkFaults, ResetBreaksConnectionsButNotTheLock) {
    auto run = run_lockcheck("reset", {"run", scenario("redis-quick-no-faults"), "--nemesis", "reset", "--time-limit",
                                       "10", "--name", "redis-reset"});
    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(run.results["valid"], true);
    EXPECT_GE(run.results["run"]["faults"].get<int>(), 1);
    EXPECT_GE(proxy_totals(run).reset, 1) << "connections were reset";
    expect_nothing_left(run);
}

TEST(NetworkFaults, BlackholeSwallowsRequestsAndClientsTimeOut) {
    auto run = run_lockcheck("blackhole", {"run", scenario("redis-quick-no-faults"), "--nemesis", "blackhole",
                                           "--time-limit", "10", "--name", "redis-blackhole"});
    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(run.results["valid"], true);
    EXPECT_GE(run.results["run"]["faults"].get<int>(), 1);
    EXPECT_GT(proxy_totals(run).discarded, 0) << "requests were swallowed";
    const auto history = read_file(run.run_dir / "history.jsonl");
    EXPECT_NE(history.find("\"type\":\"info\""), std::string::npos) << "a swallowed request ends as info";
    expect_nothing_left(run);
}

TEST(NetworkFaults, KillNineTakesTheProxyWithTheControllerAndCleanFindsNothingOfIt) {
    const auto store = fresh_store("kill-proxy");
    auto controller = start_lockcheck(store, {"run", scenario("redis-slow-reply"), "--time-limit", "30"});
    std::set<int> proxy_ports;
    for (int i = 0; i < 600 && proxy_ports.size() < 2; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        proxy_ports = listening_ports(controller->pid());
    }
    ASSERT_GE(proxy_ports.size(), 2u) << "the controller never listened for its workers (else this proves nothing)";
    kill_controller_only(*controller);
    run_clean(store);
    const auto listening = all_listening_ports();
    for (int port : proxy_ports) EXPECT_EQ(listening.count(port), 0u) << "proxy port " << port << " still listens";
    expect_nothing_left(latest_run(store));
}
