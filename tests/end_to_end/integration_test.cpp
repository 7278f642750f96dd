// Integration tests: the lockcheck binary against real redis-server, as a
// user runs it. Each test checks the verdict in results.json and that nothing
// of the run (namespace, link, process) is left afterwards.
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "host/child_process.hpp"
#include "tests/support/integration_helpers.hpp"

namespace fs = std::filesystem;
using lockcheck::ChildProcess;
using lockcheck::ChildSpec;
using namespace lockcheck::testing;

TEST(Integration, HolderPauseIsInvalidWithLeaseExpiredOverlapsAndLostUpdates) {
    auto run = run_until_decided("pause", scenario("redis-holder-pause"), 60);
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_EQ(run.results["valid"], false);
    EXPECT_GE(stats(run, "mutual-exclusion")["lease_expired"].get<int>(), 1);
    EXPECT_EQ(stats(run, "mutual-exclusion")["within_lease"].get<int>(), 0) << "one healthy Redis keeps its promise";
    EXPECT_GE(stats(run, "resource")["lost_updates"].get<int>(), 1);
    EXPECT_EQ(run.results["expectation"]["matched"], true) << run.results["expectation"].dump();
    expect_lease_expired_overlaps_only(run);  // any listed overlap may be lease-uncertain under load: not the first's class
    EXPECT_NE(run.output.find("INVALID"), std::string::npos);
    EXPECT_TRUE(fs::exists(run.run_dir / "history.jsonl"));
    EXPECT_TRUE(fs::exists(run.run_dir / "spec.json"));
    EXPECT_TRUE(fs::exists(run.run_dir / "nodes" / "n1" / "redis.conf"));
    EXPECT_TRUE(fs::exists(run.run_dir / "nodes" / "n1" / "server.log"));
    expect_nothing_left(run);
}

TEST(Integration, FencingLeavesNoLostUpdatesButTheOverlapsRemain) {
    auto run = run_lockcheck("fenced", {"run", scenario("redis-holder-pause-fenced"), "--time-limit", "20"});
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_GE(stats(run, "mutual-exclusion")["lease_expired"].get<int>(), 1);
    EXPECT_EQ(stats(run, "resource")["lost_updates"].get<int>(), 0);
    EXPECT_EQ(stats(run, "resource")["stale_writes_accepted"].get<int>(), 0);
    EXPECT_GE(stats(run, "resource")["fenced"].get<int>(), 1) << "stale tokens were rejected and counted";
    EXPECT_EQ(run.results["checkers"]["resource"]["valid"], true);
    expect_nothing_left(run);
}

TEST(Integration, NoNemesisIsValid) {
    auto run =
        run_lockcheck("calm", {"run", scenario("redis-holder-pause"), "--nemesis", "none", "--time-limit", "15"});
    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(run.results["valid"], true);
    EXPECT_GE(stats(run, "mutual-exclusion")["sessions"].get<int>(), 10);
    EXPECT_NE(run.output.find("VALID"), std::string::npos);
    expect_nothing_left(run);
}

TEST(Integration, InterruptedRunStillChecksAndCleansUp) {
    const auto store = fresh_store("interrupt");
    auto child = start_lockcheck(store, {"run", scenario("redis-holder-pause"), "--time-limit", "60"});
    EXPECT_TRUE(wait_for_first_record(store)) << "the run never recorded an op";
    std::this_thread::sleep_for(std::chrono::seconds(2));  // some ops and a fault to check
    child->send_signal(SIGINT);
    auto run = finish(*child, store);
    // Interrupted 2 s in, the first fault may not have struck yet: then the
    // run proved nothing about pause-holder and is honestly unknown (exit 2).
    EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1 || run.exit_code == 2) << run.output;
    if (run.exit_code == 2) {
        EXPECT_NE(run.results.value("unknown_reason", "").find("the nemesis never struck"), std::string::npos)
            << run.output;
    }
    EXPECT_EQ(run.results["run"]["interrupted"], true);
    EXPECT_LT(run.results["run"]["seconds"].get<double>(), 30.0);
    expect_nothing_left(run);
}

TEST(Integration, AnUnknownScenarioNamesEachDirectorySearchedOnce) {
    // From outside the checkout: build/lockcheck finds the checkout's scenarios both beside its
    // directory and as the source tree it was built from, the same directory twice.
    const auto store = fresh_store("unknown-scenario");
    auto child = start_lockcheck(store, {"run", "no-such-scenario"}, {"/bin/sh", "-c", "cd / && exec \"$@\"", "sh"});
    const auto run = finish(*child, store);
    EXPECT_EQ(run.exit_code, 254) << run.output;
    const auto searched = run.output.find("(searched ");
    ASSERT_NE(searched, std::string::npos) << run.output;
    const auto list = run.output.substr(searched, run.output.find(';', searched) - searched);
    const auto source = (fs::path(LOCKCHECK_SOURCE_DIR).lexically_normal() / "scenarios").string();
    std::size_t named = 0;
    for (auto at = list.find(source); at != std::string::npos; at = list.find(source, at + 1)) ++named;
    EXPECT_EQ(named, 1u) << "the checkout's scenarios, once: " << list;
}

TEST(Integration, ServerThatWillNotStartIsOneErrorLine) {
    const auto store = fresh_store("nostart");
    const auto fake_bin = store / "bin";
    fs::create_directories(fake_bin);
    std::ofstream(fake_bin / "redis-server") << "#!/bin/sh\necho 'FATAL: cannot open config' >&2\nexit 1\n";
    fs::permissions(fake_bin / "redis-server", fs::perms::owner_all);
    auto child = start_lockcheck(store, {"run", "--time-limit", "5"},
                                 {"env", "PATH=" + fake_bin.string() + ":" + std::getenv("PATH")});
    auto run = finish(*child, store);
    EXPECT_EQ(run.exit_code, 255);
    EXPECT_NE(run.output.find("lockcheck: error: node n1 (redis-server) exited with status 1 before it was ready; "
                              "its log says: FATAL: cannot open config"),
              std::string::npos)
        << run.output;
    expect_nothing_left(run);
}

TEST(Integration, CheckRerunsTheCheckersOffline) {
    auto run = run_lockcheck("check", {"run", scenario("redis-holder-pause"), "--time-limit", "8"});
    ASSERT_FALSE(run.run_dir.empty());
    const auto before = run.results["checkers"];
    auto tampered = run.results;
    tampered["checkers"] = nlohmann::json::object();
    std::ofstream(run.run_dir / "results.json") << tampered.dump();
    const auto store = run.run_dir.parent_path().parent_path();
    auto child = std::make_unique<ChildProcess>(
        ChildSpec{{LOCKCHECK_BINARY, "check", run.run_dir.string()}, std::nullopt, store / "check.txt", false});
    ASSERT_TRUE(child->wait_for_exit(std::chrono::seconds(30)));
    EXPECT_EQ(child->exit_status(), run.exit_code);
    auto again = nlohmann::json::parse(read_file(run.run_dir / "results.json"));
    EXPECT_EQ(again["checkers"], before);
    EXPECT_EQ(again["run"]["run_id"], run.run_id) << "the run's own fields are kept";
}

TEST(Integration, BadArgumentsExit254WithOneLine) {
    const auto store = fresh_store("badargs");
    auto child = start_lockcheck(store, {"run", "--workers", "0"});
    auto run = finish(*child, store);
    EXPECT_EQ(run.exit_code, 254);
    EXPECT_EQ(std::count(run.output.begin(), run.output.end(), '\n'), 1) << run.output;
}
