// What runs used to leave behind (issue 10, item 10), against real servers:
// mariadb-install-db and its bootstrap mariadbd after the controller is
// killed during the install; etcd's data dirs (≈ 3 × 123 MB) after a killed
// etcd run; and the lock file of a run that completed, which the next
// `clean` took for a dead run's.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>

#include <functional>
#include <thread>

#include "host/file_lock.hpp"
#include "host/state_directory.hpp"
#include "run/dead_runs.hpp"
#include "tests/support/integration_helpers.hpp"

namespace fs = std::filesystem;
using namespace lockcheck;
using namespace lockcheck::testing;

namespace {

/// The id of the run started in `store`, once it has its run directory (up to 10 s).
std::string wait_for_run_id(const fs::path& store) {
    for (int i = 0; i < 200 && !fs::exists(store / "latest"); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    return latest_run(store).run_id;
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

/// Bytes allocated on disk under `dir`.
std::uintmax_t disk_usage(const fs::path& dir) {
    std::uintmax_t bytes = 0;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        struct stat st {};
        if (::lstat(it->path().c_str(), &st) == 0) bytes += static_cast<std::uintmax_t>(st.st_blocks) * 512;
    }
    return bytes;
}

/// Starts `scenario_name` in `store`, sends `signal` to the controller once
/// `ready(run id)` holds (up to 30 s), and waits for the controller's end.
/// The caller checks how the run ended.
RunOutcome interrupt_run(const fs::path& store, const char* scenario_name,
                         const std::function<bool(const std::string&)>& ready, int signal) {
    auto controller = start_lockcheck(store, {"run", scenario(scenario_name), "--time-limit", "30"});
    const auto run_id = wait_for_run_id(store);
    EXPECT_FALSE(run_id.empty());
    EXPECT_TRUE(ready(run_id)) << "the run never got where it should be interrupted";
    controller->send_signal(signal);
    return finish(*controller, store);
}

constexpr std::uintmax_t kMegabyte = 1024 * 1024;

}  // namespace

// The installer script dies with the controller (PDEATHSIG, as every child of
// the controller does since run_command took the spawn path of
// host/process_spawn.hpp), but what it started by then (mariadbd
// --bootstrap) may still run in the run's cgroup: clean ends that and
// removes the cgroup.
TEST(Leftovers, CleanKillsTheMariadbInstallerOfAControllerKilledDuringTheInstall) {
    const auto store = fresh_store("kill-install");
    auto controller = start_lockcheck(store, {"run", scenario("mysql-record-crash"), "--time-limit", "30"});
    const auto run_id = wait_for_run_id(store);
    ASSERT_FALSE(run_id.empty());
    ASSERT_TRUE(wait_for_process(run_id, "mariadb-install-db")) << "the install never started";
    kill_controller_only(*controller);
    const auto output = run_clean(store);
    EXPECT_NE(output.find("lc-" + run_id), std::string::npos) << output;
    const auto left = processes_of_run(run_id);
    EXPECT_TRUE(left.empty()) << left.size() << " processes of the install outlived clean, e.g. " << left.front();
    expect_nothing_left(latest_run(store));
}

TEST(Leftovers, SigtermDuringTheMariadbInstallLeavesNothingOnceTheControllerHasExited) {
    const auto run = interrupt_run(
        fresh_store("term-install"), "mysql-record-crash",
        [](const std::string& run_id) { return wait_for_process(run_id, "mariadb-install-db"); }, SIGTERM);
    // Interrupted before its servers were ready: one line saying so, a harness error, no verdict.
    EXPECT_EQ(run.exit_code, 255) << run.output;
    EXPECT_NE(run.output.find("interrupted before it was ready"), std::string::npos) << run.output;
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

    const auto output = run_clean(store);
    EXPECT_LT(disk_usage(run_dir), 20 * kMegabyte) << "clean left the members' data:\n" << output;
    EXPECT_TRUE(fs::exists(run_dir / "nodes" / "n1" / "server.log")) << "the evidence stays";
    EXPECT_FALSE(read_file(run_dir / "history.jsonl").empty());
    EXPECT_FALSE(fs::exists(state_directory() / "runs" / (run_id + ".scratch")));
    expect_nothing_left(latest_run(store));
}

TEST(Leftovers, ACleanWaitsForAnotherCleanToFinish) {
    // Two cleans at once would each count the run the other is cleaning as
    // alive (each holds a dead run's lock while it cleans it); they take turns.
    const auto store = fresh_store("clean-turns");
    auto held = FileLock::try_lock(clean_lock_path());
    ASSERT_TRUE(held.has_value()) << "another clean is running on this machine";
    ChildProcess clean(ChildSpec{{LOCKCHECK_BINARY, "clean"}, std::nullopt, store / "clean.txt", false});
    EXPECT_FALSE(clean.wait_for_exit(std::chrono::milliseconds(1500)))
        << "clean ran while another clean held the lock: " << read_file(store / "clean.txt");
    held.reset();
    ASSERT_TRUE(clean.wait_for_exit(std::chrono::seconds(30))) << "clean did not go on once the lock was free";
    EXPECT_EQ(clean.exit_status(), 0) << read_file(store / "clean.txt");
    EXPECT_NE(read_file(store / "clean.txt").find("cleaned"), std::string::npos) << read_file(store / "clean.txt");
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
    const auto run = interrupt_run(
        store, "redis-no-faults", [&store](const std::string&) { return wait_for_first_record(store); }, SIGINT);
    EXPECT_EQ(run.results["run"]["interrupted"], true) << run.output;
    EXPECT_FALSE(fs::exists(state_directory() / "runs" / (run.run_id + ".lock"))) << "the run's lock file is left";
    expect_nothing_left(run);
}
