// Built-in workers forked from the run's fork server (host/fork_server.hpp)
// against a real redis-server, seen from outside as a user's tools see them:
// every worker is its own process, a child of the controller, in a cgroup of
// its own (not the server's), named `worker (forked)` in ps; the pause nemesis stops them (state T, and the
// paused holder's lease runs out: the overlap the scenario expects); the fork
// server is gone after the run and nothing of the run is left; after kill -9
// of the controller, `clean` finds nothing of the server or its workers left.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "tests/support/integration_helpers.hpp"

namespace fs = std::filesystem;
using namespace lockcheck::testing;
using namespace std::chrono_literals;

namespace {

/// The id of the run started in `store`, once it has its run directory (up to 10 s).
std::string wait_for_run_id(const fs::path& store) {
    for (int i = 0; i < 200 && !fs::exists(store / "latest"); ++i) std::this_thread::sleep_for(50ms);
    return latest_run(store).run_id;
}

/// The fork server's PID from the run's log, once every worker has answered
/// init (the "client:" line); 0 when that does not happen within 60 s.
pid_t wait_for_ready_workers(const fs::path& store) {
    const std::regex server_line("fork server, pid ([0-9]+)");
    for (int i = 0; i < 1200; ++i) {
        const auto log = read_file(store / "latest" / "lockcheck.log");
        std::smatch match;
        if (log.find("] client:") != std::string::npos && std::regex_search(log, match, server_line))
            return static_cast<pid_t>(std::stoi(match[1]));
        std::this_thread::sleep_for(50ms);
    }
    return 0;
}

/// PIDs of the run's processes whose command line (as `ps` shows it)
/// contains `title`.
std::set<pid_t> processes_titled(const std::string& run_id, const std::string& title) {
    std::set<pid_t> pids;
    for (const auto& process : processes_of_run(run_id))
        if (process.find(title) != std::string::npos)
            pids.insert(static_cast<pid_t>(std::stoi(process.substr(0, process.find(':')))));
    return pids;
}

/// The fork server (`lockcheck worker --fork-server`) and every worker forked
/// from it (which names itself `lockcheck worker (forked)`).
std::set<pid_t> forked_processes(const std::string& run_id) {
    auto pids = processes_titled(run_id, " worker --fork-server ");
    pids.merge(processes_titled(run_id, " worker (forked) "));
    return pids;
}

/// Field `index` (1-based, as in proc(5)) of /proc/PID/stat: 3 is the state, 4 the parent.
std::string stat_field(pid_t pid, int index) {
    const auto stat = read_file("/proc/" + std::to_string(pid) + "/stat");
    const auto after_name = stat.rfind(')');
    if (after_name == std::string::npos) return "";
    std::istringstream fields(stat.substr(after_name + 2));
    std::string field;
    for (int i = 3; i <= index && fields >> field; ++i) {}
    return field;
}

std::string cgroup_of(pid_t pid) { return read_file("/proc/" + std::to_string(pid) + "/cgroup"); }

}  // namespace

TEST(ForkedWorkers, EachIsTheControllersChildInItsOwnCgroupPausedByTheNemesisAndNothingOutlivesTheRun) {
    const auto store = fresh_store("forked-workers");
    auto controller = start_lockcheck(store, {"run", scenario("redis-quick-holder-pause"), "--time-limit", "8"});
    const auto run_id = wait_for_run_id(store);
    ASSERT_FALSE(run_id.empty());
    const pid_t server = wait_for_ready_workers(store);
    ASSERT_GT(server, 0) << read_file(store / "latest" / "lockcheck.log");

    EXPECT_EQ(processes_titled(run_id, " worker --fork-server "), std::set<pid_t>{server})
        << "only the server is named the fork server in ps, not the workers forked from it";
    auto workers = forked_processes(run_id);
    ASSERT_EQ(workers.erase(server), 1u) << "the fork server is not running during the run";
    ASSERT_EQ(workers.size(), 5u) << "the scenario's 5 workers, each its own process, named as forked workers";
    EXPECT_EQ(stat_field(server, 4), std::to_string(controller->pid()));
    std::set<std::string> cgroups{cgroup_of(server)};
    for (const pid_t worker : workers) {
        EXPECT_EQ(stat_field(worker, 4), std::to_string(controller->pid()))
            << "worker " << worker << " is not the controller's child";
        const auto cgroup = cgroup_of(worker);
        EXPECT_NE(cgroup.find("lc-" + run_id + "/c"), std::string::npos) << cgroup;
        EXPECT_TRUE(cgroups.insert(cgroup).second) << "worker " << worker << " shares its cgroup: " << cgroup;
    }

    // The pause nemesis stops a holder (SIGSTOP to its process group): seen as state T.
    bool seen_stopped = false;
    for (int i = 0; i < 400 && !seen_stopped; ++i) {
        for (const pid_t worker : workers) seen_stopped = seen_stopped || stat_field(worker, 3) == "T";
        std::this_thread::sleep_for(20ms);
    }
    EXPECT_TRUE(seen_stopped) << "no forked worker was ever stopped by the pause nemesis";

    const auto run = finish(*controller, store);
    EXPECT_EQ(run.exit_code, 1) << run.output;  // invalid, as the scenario expects
    ASSERT_TRUE(run.results.is_object()) << run.output;
    // The paused holder stopped answering: its lease ran out and another took the lock.
    EXPECT_EQ(run.results["expectation"]["matched"], true) << run.results["expectation"].dump();
    EXPECT_EQ(::kill(server, 0), -1) << "the fork server outlived the run";
    for (const pid_t worker : workers) EXPECT_EQ(::kill(worker, 0), -1) << "worker " << worker << " outlived the run";
    expect_nothing_left(run);
}

TEST(ForkedWorkers, AfterKillNineOfTheControllerCleanFindsNoServerOrWorkerLeft) {
    const auto store = fresh_store("forked-workers-kill");
    auto controller = start_lockcheck(store, {"run", scenario("redis-quick-no-faults"), "--time-limit", "30"});
    const auto run_id = wait_for_run_id(store);
    ASSERT_FALSE(run_id.empty());
    ASSERT_GT(wait_for_ready_workers(store), 0) << read_file(store / "latest" / "lockcheck.log");
    ASSERT_EQ(forked_processes(run_id).size(), 6u) << "the server and 5 workers";
    kill_controller_only(*controller);
    run_clean(store);
    const auto left = processes_of_run(run_id);
    EXPECT_TRUE(left.empty()) << left.size() << " processes of the run outlived clean, e.g. " << left.front();
}
