// A harness that never leaks: kill -9 of the controller mid-run leaves a
// readable history, children die with the controller, and `lockcheck clean`
// removes the rest without touching a run that is still alive.
#include <gtest/gtest.h>

#include <thread>

#include "host/system_command.hpp"
#include "tests/support/integration_helpers.hpp"

namespace fs = std::filesystem;
using namespace lockcheck;
using namespace lockcheck::testing;

namespace {

/// Runs `lockcheck ARGS` to completion; returns (exit code, output).
std::pair<int, std::string> lockcheck_command(const fs::path& dir, const std::vector<std::string>& args) {
    std::vector<std::string> argv{LOCKCHECK_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    ChildProcess child(ChildSpec{argv, std::nullopt, dir / "command.txt", false});
    EXPECT_TRUE(child.wait_for_exit(std::chrono::seconds(60)));
    return {child.exit_status().value_or(-1), read_file(dir / "command.txt")};
}

/// Waits until the run started in `store` has created its network; returns its id.
std::string wait_for_network(const fs::path& store) {
    for (int i = 0; i < 200; ++i) {
        if (fs::exists(store / "latest")) {
            const auto name = fs::canonical(store / "latest").filename().string();
            const auto id = name.substr(name.rfind('-') + 1);
            if (run_command({"ip", "netns", "list"}).output.find("lc-" + id) != std::string::npos) return id;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ADD_FAILURE() << "the run never created its network";
    return "";
}

bool has_namespace(const std::string& run_id) {
    return run_command({"ip", "netns", "list"}).output.find("lc-" + run_id) != std::string::npos;
}

}  // namespace

TEST(NeverLeak, KilledControllerLeavesAReadableHistoryAndCleanRemovesTheRest) {
    const auto store = fresh_store("kill9");
    auto controller = start_lockcheck(store, {"run", scenario("redis-holder-pause"), "--time-limit", "60"});
    RunOutcome run;
    run.run_id = wait_for_network(store);
    std::this_thread::sleep_for(std::chrono::seconds(4));
    controller->kill();  // SIGKILL: no cleanup code of the controller runs
    run.run_dir = fs::canonical(store / "latest");

    EXPECT_TRUE(has_namespace(run.run_id)) << "nothing cleaned the network yet (else this test proves nothing)";
    for (int i = 0; i < 100 && !processes_of_run(run.run_id).empty(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_TRUE(processes_of_run(run.run_id).empty()) << "children die with the controller (PDEATHSIG)";

    const auto [check_exit, check_output] = lockcheck_command(store, {"check", run.run_dir.string()});
    EXPECT_TRUE(check_exit == 0 || check_exit == 1) << "the history up to its last record is decided\n" << check_output;
    EXPECT_NE(check_output.find("ops checked"), std::string::npos) << check_output;

    const auto [clean_exit, clean_output] = lockcheck_command(store, {"clean"});
    EXPECT_EQ(clean_exit, 0);
    EXPECT_NE(clean_output.find("removed lc-" + run.run_id + "-n1"), std::string::npos) << clean_output;
    expect_nothing_left(run);
}

TEST(NeverLeak, CleanLeavesALiveRunAlone) {
    const auto store = fresh_store("alive");
    auto controller = start_lockcheck(store, {"run", scenario("redis-no-faults"), "--time-limit", "8"});
    const auto run_id = wait_for_network(store);
    const auto [clean_exit, clean_output] = lockcheck_command(store, {"clean"});
    EXPECT_EQ(clean_exit, 0);
    EXPECT_EQ(clean_output.find(run_id), std::string::npos) << clean_output;
    EXPECT_TRUE(has_namespace(run_id)) << "clean removed a live run's network";
    auto run = finish(*controller, store);
    EXPECT_EQ(run.exit_code, 0) << run.output;
    expect_nothing_left(run);
}
