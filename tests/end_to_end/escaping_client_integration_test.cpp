// Clients that leave processes behind (issue 10, item 6): a --client-cmd
// worker whose child escapes (setsid, double fork, SIGTERM ignored) must not
// outlive the worker's replacement, the run, or `lockcheck clean` after the
// controller was killed with SIGKILL. Against real redis-server, with
// tests/clients/escaping_client.py.
#include <gtest/gtest.h>
#include <signal.h>

#include <fstream>
#include <thread>

#include "tests/support/integration_helpers.hpp"

namespace fs = std::filesystem;
using namespace lockcheck;
using namespace lockcheck::testing;

namespace {

const std::string kSource = LOCKCHECK_SOURCE_DIR;

/// A spec for `workers` escaping clients writing their escapees' PIDs into
/// `pid_dir`; each exits after `exit_after` requests when that is > 0.
std::string escaping_spec(const fs::path& pid_dir, int workers, double seconds, int exit_after = 0) {
    const auto path = pid_dir / "spec.json";
    std::string command = "/usr/bin/python3 " + kSource + "/tests/clients/escaping_client.py " + pid_dir.string();
    if (exit_after > 0) command += " " + std::to_string(exit_after);
    const nlohmann::json spec{
        {"name", "escaping-client"},         {"recipe", "python-escaping"}, {"client_cmd", command},
        {"topology", "redis-single"},        {"workers", workers},          {"time_limit_s", seconds},
        {"nemesis", nlohmann::json::array()}};
    std::ofstream(path) << spec.dump();
    return path.string();
}

/// PIDs the escapees wrote into `pid_dir` so far.
std::vector<pid_t> escapees(const fs::path& pid_dir) {
    std::vector<pid_t> pids;
    for (const auto& entry : fs::directory_iterator(pid_dir))
        if (entry.path().extension() == ".pid") pids.push_back(std::stoi(read_file(entry.path())));
    return pids;
}

/// True while `pid` is an escapee that runs: a zombie waiting for init to
/// reap it runs nothing and holds nothing.
bool escapee_alive(pid_t pid) {
    const auto proc = fs::path("/proc") / std::to_string(pid);
    const auto stat = read_file(proc / "stat");
    if (stat.empty()) return false;
    const auto state = stat.substr(stat.rfind(')') + 2, 1);
    return state != "Z" && state != "X" && read_file(proc / "cmdline").find("escaping_client.py") != std::string::npos;
}

/// Escapees still alive; kills them so that a failed test leaves nothing.
std::vector<pid_t> surviving_escapees(const fs::path& pid_dir) {
    std::vector<pid_t> alive;
    for (pid_t pid : escapees(pid_dir))
        if (escapee_alive(pid)) alive.push_back(pid);
    return alive;
}

void kill_escapees(const std::vector<pid_t>& pids) {
    for (pid_t pid : pids) ::kill(pid, SIGKILL);
}

/// Waits up to 20 s until at least `count` escapees have written their PID.
void wait_for_escapees(const fs::path& pid_dir, std::size_t count) {
    for (int i = 0; i < 400 && escapees(pid_dir).size() < count; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ASSERT_GE(escapees(pid_dir).size(), count) << "the clients never started their escapees";
}

}  // namespace

TEST(EscapingClient, ItsEscapedChildDiesWithTheRun) {
    const auto store = fresh_store("escape-run");
    auto controller = start_lockcheck(store, {"run", escaping_spec(store, 3, 3)});
    auto run = finish(*controller, store);
    EXPECT_EQ(run.exit_code, 0) << run.output;
    ASSERT_EQ(escapees(store).size(), 3u) << "one escapee per worker";
    const auto alive = surviving_escapees(store);
    EXPECT_TRUE(alive.empty()) << alive.size() << " escaped children outlived the run, e.g. PID " << alive.front();
    kill_escapees(alive);
    expect_nothing_left(run);
}

TEST(EscapingClient, AReplacedWorkersEscapedChildDiesWithItDuringTheRun) {
    const auto store = fresh_store("escape-replaced");
    // One worker exiting after 5 requests: replaced again and again, each time leaving an escapee.
    auto controller = start_lockcheck(store, {"run", escaping_spec(store, 1, 12, 5)});
    wait_for_escapees(store, 4);
    ASSERT_TRUE(controller->running()) << "the run is still going: this is about replacements, not the end";
    const auto started = escapees(store).size();
    // The current worker's escapee lives, and perhaps the one of a worker that
    // has just exited and is not replaced yet; the others died with their worker.
    EXPECT_LE(surviving_escapees(store).size(), 2u) << started << " escapees were started";
    auto run = finish(*controller, store);
    EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.output;
    const auto alive = surviving_escapees(store);
    EXPECT_TRUE(alive.empty()) << alive.size() << " escaped children outlived the run";
    kill_escapees(alive);
}

TEST(EscapingClient, CleanKillsTheEscapedChildrenOfAKilledController) {
    const auto store = fresh_store("escape-kill9");
    auto controller = start_lockcheck(store, {"run", escaping_spec(store, 2, 60)});
    wait_for_escapees(store, 2);
    kill_controller_only(*controller);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    ASSERT_EQ(surviving_escapees(store).size(), 2u)
        << "the escapees outlive the controller until clean (else this test proves nothing)";

    const auto clean_output = run_clean(store);
    const auto alive = surviving_escapees(store);
    EXPECT_TRUE(alive.empty()) << alive.size() << " escaped children survived clean\n" << clean_output;
    kill_escapees(alive);
    const auto run = latest_run(store);
    EXPECT_NE(clean_output.find("lc-" + run.run_id), std::string::npos) << clean_output;
    expect_nothing_left(run);
}
