// What runs used to leave behind (issue 10, item 10), against real servers:
// mariadb-install-db and its bootstrap mariadbd after the controller is
// killed during the install; etcd's data dirs (≈ 3 × 123 MB) after a killed
// etcd run; and the lock file of a run that completed, which the next
// `clean` took for a dead run's.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>

#include <thread>

#include "clusters/state_directory.hpp"
#include "tests/integration_helpers.hpp"

namespace fs = std::filesystem;
using namespace lockcheck;
using namespace lockcheck::testing;

namespace {

/// The id of the run started in `store`, once it has its run directory (up to 10 s).
std::string wait_for_run_id(const fs::path& store) {
    for (int i = 0; i < 200 && !fs::exists(store / "latest"); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (!fs::exists(store / "latest")) return "";
    const auto name = fs::canonical(store / "latest").filename().string();
    return name.substr(name.rfind('-') + 1);
}

/// Processes of the run whose command line contains `what` (up to 30 s for one to appear).
bool wait_for_process(const std::string& run_id, const std::string& what) {
    for (int i = 0; i < 600; ++i) {
        for (const auto& process : processes_of_run(run_id))
            if (process.find(what) != std::string::npos) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
}

/// Runs `lockcheck clean`; returns its output.
std::string clean(const fs::path& store) {
    const auto out = store / "clean.txt";
    ChildProcess child(ChildSpec{{LOCKCHECK_BINARY, "clean"}, std::nullopt, out, false});
    EXPECT_TRUE(child.wait_for_exit(std::chrono::seconds(60)));
    EXPECT_EQ(child.exit_status(), 0);
    return read_file(out);
}

/// Bytes allocated on disk under `dir`.
std::uintmax_t disk_usage(const fs::path& dir) {
    std::uintmax_t bytes = 0;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        struct stat st{};
        if (::lstat(it->path().c_str(), &st) == 0) bytes += static_cast<std::uintmax_t>(st.st_blocks) * 512;
    }
    return bytes;
}

/// The outcome of a run killed in `store`: its directory and id.
RunOutcome killed_run(const fs::path& store) {
    RunOutcome run;
    run.run_dir = fs::canonical(store / "latest");
    const auto name = run.run_dir.filename().string();
    run.run_id = name.substr(name.rfind('-') + 1);
    return run;
}

constexpr std::uintmax_t kMegabyte = 1024 * 1024;

}  // namespace

TEST(Leftovers, CleanKillsTheMariadbInstallerOfAControllerKilledDuringTheInstall) {
    const auto store = fresh_store("kill-install");
    auto controller = start_lockcheck(store, {"run", scenario("mysql-record-crash"), "--time-limit", "30"});
    const auto run_id = wait_for_run_id(store);
    ASSERT_FALSE(run_id.empty());
    ASSERT_TRUE(wait_for_process(run_id, "mariadb-install-db")) << "the install never started";
    kill_controller_only(*controller);
    ASSERT_FALSE(processes_of_run(run_id).empty()) << "the installer outlives the controller (else this proves nothing)";
    const auto output = clean(store);
    EXPECT_NE(output.find("lc-" + run_id), std::string::npos) << output;
    const auto left = processes_of_run(run_id);
    EXPECT_TRUE(left.empty()) << left.size() << " processes of the install outlived clean, e.g. " << left.front();
    expect_nothing_left(killed_run(store));
}

TEST(Leftovers, SigtermDuringTheMariadbInstallLeavesNothingOnceTheControllerHasExited) {
    const auto store = fresh_store("term-install");
    auto controller = start_lockcheck(store, {"run", scenario("mysql-record-crash"), "--time-limit", "30"});
    const auto run_id = wait_for_run_id(store);
    ASSERT_FALSE(run_id.empty());
    ASSERT_TRUE(wait_for_process(run_id, "mariadb-install-db")) << "the install never started";
    controller->send_signal(SIGTERM);
    auto run = finish(*controller, store);
    EXPECT_EQ(run.results["run"]["interrupted"], true) << run.output;
    expect_nothing_left(run);
}

TEST(Leftovers, CleanReclaimsTheDataDirsOfAKilledEtcdRunAndKeepsItsLogs) {
    const auto store = fresh_store("kill-etcd");
    auto controller = start_lockcheck(store, {"run", scenario("etcd-holder-pause"), "--time-limit", "60"});
    const auto run_id = wait_for_run_id(store);
    ASSERT_FALSE(run_id.empty());
    const auto run_dir = fs::canonical(store / "latest");
    for (int i = 0; i < 600 && read_file(run_dir / "history.jsonl").empty(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ASSERT_FALSE(read_file(run_dir / "history.jsonl").empty()) << "the etcd cluster never served a client";
    kill_controller_only(*controller);
    ASSERT_GT(disk_usage(run_dir), 300 * kMegabyte) << "three members' data dirs (else this proves nothing)";

    const auto output = clean(store);
    EXPECT_LT(disk_usage(run_dir), 20 * kMegabyte) << "clean left the members' data:\n" << output;
    EXPECT_TRUE(fs::exists(run_dir / "nodes" / "n1" / "server.log")) << "the evidence stays";
    EXPECT_FALSE(read_file(run_dir / "history.jsonl").empty());
    EXPECT_FALSE(fs::exists(state_directory() / "runs" / (run_id + ".scratch")));
    expect_nothing_left(killed_run(store));
}

TEST(Leftovers, ACompletedRunLeavesNoLockFileForCleanToTakeForADeadRun) {
    auto run = run_lockcheck("completed", {"run", scenario("redis-no-faults"), "--time-limit", "2"});
    EXPECT_EQ(run.exit_code, 0) << run.output;
    ASSERT_FALSE(run.run_id.empty());
    const auto runs = state_directory() / "runs";
    EXPECT_FALSE(fs::exists(runs / (run.run_id + ".lock"))) << "the run's lock file is left";
    EXPECT_FALSE(fs::exists(runs / (run.run_id + ".scratch")));
    EXPECT_FALSE(fs::exists(run.run_dir / "scratch"));
    expect_nothing_left(run);
}

TEST(Leftovers, AnInterruptedRunLeavesNoLockFileEither) {
    const auto store = fresh_store("interrupted");
    auto controller = start_lockcheck(store, {"run", scenario("redis-no-faults"), "--time-limit", "30"});
    const auto run_id = wait_for_run_id(store);
    ASSERT_FALSE(run_id.empty());
    std::this_thread::sleep_for(std::chrono::seconds(2));
    controller->send_signal(SIGINT);
    auto run = finish(*controller, store);
    EXPECT_EQ(run.results["run"]["interrupted"], true) << run.output;
    EXPECT_FALSE(fs::exists(state_directory() / "runs" / (run_id + ".lock"))) << "the run's lock file is left";
    expect_nothing_left(run);
}
