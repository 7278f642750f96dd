// Runs that ask for the power-loss fault, through the lockcheck binary: a
// host that cannot mount the lose-unsynced filesystem refuses the spec in one
// line (exit 254) before it makes a run directory (adversarial: not root, no
// daemon); a run killed with kill -9 while nodes are without power leaves
// mounts that `lockcheck clean` takes down; a filesystem daemon that dies
// stops the run with exit 255 and one line, leaving no mount; a run
// without power-loss mounts nothing; and power_loss_after_grant_ms strikes
// that many ms after a grant recorded after the event began.
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <fstream>
#include <map>
#include <regex>
#include <thread>

#include "tests/support/integration_helpers.hpp"

namespace fs = std::filesystem;
using namespace lockcheck::testing;

namespace {

/// Lines of /proc/mounts of run `run_id` (fsname "lockcheck:<run id>:<node>").
std::vector<std::string> mounts_of_run(const std::string& run_id) {
    std::ifstream table("/proc/mounts");
    std::vector<std::string> found;
    for (std::string line; std::getline(table, line);)
        if (line.rfind("lockcheck:" + run_id + ":", 0) == 0) found.push_back(line);
    return found;
}

/// Runs redlock-power-loss-always with `prefix` before the binary and checks
/// the refusal: exit 254, one line naming the fault and `reason`, no run
/// directory in the store.
void expect_refused(const std::string& test, const std::vector<std::string>& prefix, const std::string& reason) {
    const auto store = fresh_store(test);
    auto controller = start_lockcheck(store, {"run", scenario("redlock-power-loss-always")}, prefix);
    ASSERT_TRUE(controller->wait_for_exit(std::chrono::seconds(30)));
    const auto output = read_file(store / "output.txt");
    EXPECT_EQ(controller->exit_status(), 254) << output;
    EXPECT_EQ(std::count(output.begin(), output.end(), '\n'), 1) << output;
    EXPECT_NE(output.find("fault power-loss cannot run here"), std::string::npos) << output;
    EXPECT_NE(output.find(reason), std::string::npos) << output;
    EXPECT_FALSE(fs::exists(store / "redlock-power-loss-always")) << "a run directory was made";
    EXPECT_FALSE(fs::exists(store / "latest")) << "a run directory was made";
}

/// Whether the history at `path` shows a power loss that struck nodes and has
/// not been healed yet (a start-fault info with targets, no stop-fault after).
bool nodes_without_power(const fs::path& path) {
    std::ifstream history(path);
    bool down = false;
    for (std::string line; std::getline(history, line);) {
        const auto op = nlohmann::json::parse(line, nullptr, false);
        if (op.is_discarded() || op["process"] != "nemesis") continue;  // a line still being written
        if (op["f"] == "start-fault" && op["type"] == "info" && op["value"].contains("targets")) down = true;
        if (op["f"] == "stop-fault") down = false;
    }
    return down;
}

/// The history's ops, in order (whole lines only).
std::vector<nlohmann::json> history_ops(const fs::path& path) {
    std::ifstream history(path);
    std::vector<nlohmann::json> ops;
    for (std::string line; std::getline(history, line);) {
        auto op = nlohmann::json::parse(line, nullptr, false);
        if (!op.is_discarded()) ops.push_back(std::move(op));
    }
    return ops;
}

}  // namespace

TEST(PowerLossRun, AfterGrantStrikesThatLongAfterAFreshGrant) {
    // power_loss_after_grant_ms 100 on one MariaDB, holds of 6-7 s.
    const auto run = run_lockcheck("power-loss-after-grant",
                                   {"run", scenario("mysql-record-power-loss-flush-1"), "--time-limit", "15"});
    ASSERT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.output;
    const auto ops = history_ops(run.run_dir / "history.jsonl");
    const std::regex named(R"((\d+) ms after the grant to worker (\d+))");
    std::map<int, std::int64_t> last_grant;  // process -> time of its latest acquire ok
    std::int64_t event_began = -1;
    int strikes = 0;
    for (const auto& op : ops) {
        if (op["f"] == "acquire" && op["type"] == "ok") last_grant[op["process"].get<int>()] = op["time"];
        if (op["process"] != "nemesis" || op["f"] != "start-fault") continue;
        if (op["type"] == "invoke") {
            event_began = op["time"];
            continue;
        }
        if (!op["value"].contains("targets")) continue;  // the run ended while it waited for a grant
        const auto targets = op["value"]["targets"];
        ASSERT_EQ(targets.size(), 2u) << op.dump();
        EXPECT_EQ(targets[0], "n1");
        std::smatch m;
        const std::string what = targets[1];
        ASSERT_TRUE(std::regex_match(what, m, named)) << what;
        EXPECT_EQ(m[1], "100");
        const int worker = std::stoi(m[2]);
        ASSERT_TRUE(last_grant.count(worker)) << "worker " << worker << " was never granted the lock";
        const std::int64_t granted = last_grant[worker];
        EXPECT_GE(granted, event_began) << "the grant is older than the event: not fresh";
        EXPECT_GE(op["time"].get<std::int64_t>() - granted, 100'000'000) << "struck sooner than 100 ms after the grant";
        ++strikes;
    }
    EXPECT_GE(strikes, 1) << run.output;
}

TEST(PowerLossRun, RefusedWithoutRoot) {
    // A user namespace without a mapping: geteuid() is the overflow uid.
    expect_refused("power-loss-not-root", {"unshare", "--user"}, "it needs root");
}

TEST(PowerLossRun, RefusedWithoutTheFilesystemDaemon) {
    // The binary alone in a directory: no lockcheck-unsyncedfs beside it.
    const auto dir = fs::temp_directory_path() / ("lockcheck-lone-binary-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const auto lone = (dir / "lockcheck").string();
    expect_refused("power-loss-no-daemon", {"/bin/sh", "-ec", "cp \"$0\" " + lone + "; exec " + lone + " \"$@\""},
                   "its daemon lockcheck-unsyncedfs is missing");
    fs::remove_all(dir);
}

TEST(PowerLossRun, CleanUnmountsWhatARunKilledDuringAPowerLossLeft) {
    const auto store = fresh_store("power-loss-kill-9");
    // everysec with the restart delayed 1.2 x TTL: each power loss keeps its node down 3.6 s.
    auto controller = start_lockcheck(store, {"run", scenario("redlock-power-loss-delayed")});
    std::string run_id;
    bool down = false;
    for (int i = 0; i < 1200 && !down; ++i) {  // up to 60 s
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        if (run_id.empty() && fs::exists(store / "latest")) run_id = latest_run(store).run_id;
        if (run_id.empty()) continue;
        down = nodes_without_power(latest_run(store).run_dir / "history.jsonl");
    }
    ASSERT_TRUE(down) << "no node ever lost power:\n" << read_file(store / "output.txt");
    ASSERT_EQ(mounts_of_run(run_id).size(), 5u) << "the five Redis servers are not on the filesystem";

    kill_controller_only(*controller);
    EXPECT_FALSE(mounts_of_run(run_id).empty()) << "nothing was left for clean: the test proves nothing";
    const auto output = run_clean(store);

    EXPECT_TRUE(mounts_of_run(run_id).empty()) << "clean left mounts of the killed run:\n" << output;
    RunOutcome run = latest_run(store);
    expect_nothing_left(run);
}

TEST(PowerLossRun, ARunWithoutPowerLossMountsNothing) {
    const auto store = fresh_store("no-power-loss-mounts");
    auto controller = start_lockcheck(store, {"run", scenario("redlock-delayed-restart"), "--time-limit", "3"});
    std::string run_id;
    std::size_t mounted = 0;
    for (int i = 0; i < 600 && !controller->wait_for_exit(std::chrono::milliseconds(50)); ++i) {
        if (run_id.empty() && fs::exists(store / "latest")) run_id = latest_run(store).run_id;
        if (!run_id.empty()) mounted = std::max(mounted, mounts_of_run(run_id).size());
    }
    const auto run = finish(*controller, store);
    ASSERT_FALSE(run_id.empty()) << run.output;
    EXPECT_EQ(mounted, 0u) << "a run without power-loss mounted the lose-unsynced filesystem";
    EXPECT_FALSE(fs::exists(run.run_dir / "nodes" / "n1" / "unsyncedfs.log"));
    // A verdict (2: a 3 s run whose kill-restart found nothing to strike is honestly unknown), not a harness error.
    EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1 || run.exit_code == 2) << run.output;
}

TEST(PowerLossRun, ADeadFilesystemDaemonStopsTheRunWithAHarnessError) {
    const auto store = fresh_store("power-loss-dead-daemon");
    auto controller = start_lockcheck(store, {"run", scenario("redlock-power-loss-always")});
    std::string run_id;
    const auto workload_started = [&] {
        std::error_code ec;
        return !run_id.empty() && fs::file_size(latest_run(store).run_dir / "history.jsonl", ec) > 0 && !ec;
    };
    for (int i = 0; i < 600 && !workload_started(); ++i) {  // up to 30 s
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        if (run_id.empty() && fs::exists(store / "latest")) run_id = latest_run(store).run_id;
    }
    ASSERT_EQ(mounts_of_run(run_id).size(), 5u) << read_file(store / "output.txt");
    // The daemon of n2's mount, found by the fsname on its command line.
    pid_t daemon = 0;
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const std::string cmdline = read_file(entry.path() / "cmdline");
        if (cmdline.find("lockcheck-unsyncedfs") != std::string::npos &&
            cmdline.find("lockcheck:" + run_id + ":n2") != std::string::npos)
            daemon = static_cast<pid_t>(std::stoi(entry.path().filename().string()));
    }
    ASSERT_GT(daemon, 0) << "no daemon for n2";
    ASSERT_EQ(::kill(daemon, SIGKILL), 0);
    const auto run = finish(*controller, store);
    EXPECT_EQ(run.exit_code, 255) << run.output;
    EXPECT_NE(run.output.find("error: the lose-unsynced filesystem failed: "), std::string::npos) << run.output;
    ASSERT_TRUE(run.results.is_object()) << "the workload had started: its history is checked\n" << run.output;
    EXPECT_LT(run.results["run"]["seconds"].get<double>(), 15) << "the run went on after its filesystem died";
    EXPECT_TRUE(mounts_of_run(run_id).empty()) << "a mount outlived the run";
    expect_nothing_left(run);
}
