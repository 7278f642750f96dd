// Containment of process trees (issue 10, item 6): a cgroup of either kind
// kills a child together with an escapee it double-forked into a session of
// its own with SIGTERM ignored; a contained ChildProcess takes its escapees
// with it; clean finds and removes a dead run's cgroup; and without cgroups a
// subreaper kills and reaps the escapees reparented to it; a worker started
// through `sh -c` is paused and stopped with what the shell started. Needs
// root and the cgroup hierarchies of Linux (v2 with cgroup.kill, and the v1
// freezer).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "host/child_process.hpp"
#include "host/process_cgroup.hpp"
#include "host/run_containment.hpp"
#include "run/run_liveness.hpp"

namespace fs = std::filesystem;
using namespace lockcheck;

namespace {

std::string read_text(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

/// The state letter of /proc/PID/stat ('S', 'T', 'Z', ...), or 0 when it is gone.
char state_of(pid_t pid) {
    const auto stat = read_text(fs::path("/proc") / std::to_string(pid) / "stat");
    return stat.empty() ? '\0' : stat[stat.rfind(')') + 2];
}

/// True while `pid` runs (a zombie runs nothing).
bool running(pid_t pid) {
    const char state = state_of(pid);
    return state != '\0' && state != 'Z' && state != 'X';
}

/// True once `pid` is in `state`, within 5 s.
bool reaches_state(pid_t pid, char state) {
    for (int i = 0; i < 500; ++i) {
        if (state_of(pid) == state) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

/// The first child of `pid`, waiting up to 5 s for it to appear; 0 if none.
pid_t child_of(pid_t pid) {
    const auto children = fs::path("/proc") / std::to_string(pid) / "task" / std::to_string(pid) / "children";
    for (int i = 0; i < 500; ++i) {
        std::istringstream list(read_text(children));
        pid_t child = 0;
        if (list >> child) return child;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return 0;
}

bool stops_running_within(pid_t pid, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (running(pid)) {
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
}

/// A fresh six-hex-digit id, as runs have.
std::string fresh_run_id() {
    std::random_device random;
    char id[8];
    std::snprintf(id, sizeof id, "%06x", random() & 0xffffffu);
    return id;
}

struct Tree {
    pid_t child = -1;
    pid_t escapee = -1;
};

/// Forks a child that joins `procs_file` (when given) and double-forks an
/// escapee: a session of its own, SIGTERM and SIGHUP ignored, sleeping. Both
/// sleep at most 10 minutes.
Tree fork_escaping_tree(const char* procs_file) {
    int report[2];
    EXPECT_EQ(::pipe(report), 0);
    const pid_t child = ::fork();
    if (child == 0) {
        if (procs_file && !join_cgroup(procs_file)) ::_exit(1);
        if (::fork() == 0) {
            ::setsid();
            const pid_t middle = ::getpid();
            if (::fork() == 0) {
                ::signal(SIGTERM, SIG_IGN);
                ::signal(SIGHUP, SIG_IGN);
                // Report only once the parent in between has gone, so the tree is exactly two processes.
                for (int i = 0; i < 500 && ::getppid() == middle; ++i) ::usleep(10'000);
                const pid_t self = ::getpid();
                (void)!::write(report[1], &self, sizeof self);
                ::sleep(600);
            }
            ::_exit(0);
        }
        ::sleep(600);
        ::_exit(0);
    }
    ::close(report[1]);
    Tree tree{child, -1};
    EXPECT_EQ(::read(report[0], &tree.escapee, sizeof tree.escapee), static_cast<ssize_t>(sizeof tree.escapee));
    ::close(report[0]);
    return tree;
}

/// Reaps the child of a tree, killing it first if it still runs.
void reap(const Tree& tree) {
    ::kill(tree.child, SIGKILL);
    ::waitpid(tree.child, nullptr, 0);
    if (running(tree.escapee)) ::kill(tree.escapee, SIGKILL);
}

class EveryCgroupKind : public ::testing::TestWithParam<CgroupKind> {
protected:
    CgroupHierarchy hierarchy() const {
        for (const auto& h : usable_cgroup_hierarchies())
            if (h.kind == GetParam()) return h;
        ADD_FAILURE() << "no usable cgroup hierarchy of this kind (root and a cgroup v2 and v1 freezer mount needed)";
        return {};
    }
};

TEST_P(EveryCgroupKind, KillsAChildAndTheEscapeeItLeftInItsOwnSession) {
    const auto h = hierarchy();
    ASSERT_FALSE(h.dir.empty());
    const auto dir = h.dir / ("test-" + std::to_string(::getpid()));
    Tree tree;
    {
        ProcessCgroup cgroup(h, dir);
        tree = fork_escaping_tree(cgroup.procs_file().c_str());
        ASSERT_GT(tree.escapee, 0);
        EXPECT_EQ(cgroup_tree_pids(dir).size(), 2u) << "the child and its escapee";
        ::kill(tree.escapee, SIGTERM);  // ignored
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        EXPECT_TRUE(running(tree.escapee));
        EXPECT_TRUE(cgroup.kill_all());
        EXPECT_TRUE(stops_running_within(tree.escapee, std::chrono::seconds(2)));
        EXPECT_TRUE(stops_running_within(tree.child, std::chrono::seconds(2)));
    }
    EXPECT_FALSE(fs::exists(dir)) << "the cgroup is removed with its object";
    reap(tree);
}

INSTANTIATE_TEST_SUITE_P(ProcessCgroup, EveryCgroupKind, ::testing::Values(CgroupKind::Unified, CgroupKind::Freezer),
                         [](const auto& test) { return test.param == CgroupKind::Unified ? "Unified" : "Freezer"; });

TEST(RunContainment, KillingAContainedChildKillsWhatItStartedAndTheRunsCgroupGoesWithTheRun) {
    const auto pid_file = fs::temp_directory_path() / ("lockcheck-escapee-" + std::to_string(::getpid()));
    fs::remove(pid_file);
    std::optional<fs::path> run_cgroup;
    pid_t escapee = -1;
    {
        const std::string run_id = fresh_run_id();
        const RunAliveLock alive(run_id);  // so that another test's `clean` leaves this run alone
        RunContainment containment(run_id);
        run_cgroup = containment.cgroup();
        ASSERT_TRUE(run_cgroup.has_value()) << "root with usable cgroups";
        ChildProcess child(ChildSpec{{"/bin/sh", "-c",
                                      "setsid /bin/sh -c 'trap \"\" TERM HUP; echo $$ > " + pid_file.string() +
                                          "; exec sleep 600' & exec sleep 600"},
                                     std::nullopt,
                                     "",
                                     false});
        for (int i = 0; i < 400 && read_text(pid_file).empty(); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        escapee = std::stoi(read_text(pid_file));
        ASSERT_TRUE(running(escapee));
        child.kill();
        EXPECT_TRUE(stops_running_within(escapee, std::chrono::seconds(2)))
            << "the escapee left the child's process group but not its cgroup";
    }
    EXPECT_FALSE(fs::exists(*run_cgroup)) << "the run's cgroup is removed at the end of the run";
    fs::remove(pid_file);
    if (running(escapee)) ::kill(escapee, SIGKILL);
}

TEST(RunContainment, CleanFindsADeadRunsCgroupAndKillsWhatIsInIt) {
    const auto h = lockcheck_cgroups();
    ASSERT_TRUE(h.has_value()) << "root with usable cgroups";
    const auto run_id = fresh_run_id();
    // Alive while the test builds its cgroup, so that a `clean` of another test
    // running at the same time leaves it alone.
    auto alive = std::make_optional<RunAliveLock>(run_id);
    const auto dir = h->dir / ("lc-" + run_id) / "c1";
    fs::create_directories(dir);
    const auto tree = fork_escaping_tree((dir / "cgroup.procs").c_str());
    ASSERT_GT(tree.escapee, 0);
    EXPECT_EQ(run_ids_with_cgroup().count(run_id), 1u);

    const auto removed = remove_run_cgroup(run_id);
    ASSERT_EQ(removed.size(), 1u);
    EXPECT_NE(removed[0].find("lc-" + run_id + " (2 processes killed)"), std::string::npos) << removed[0];
    EXPECT_TRUE(stops_running_within(tree.escapee, std::chrono::seconds(2)));
    EXPECT_FALSE(fs::exists(h->dir / ("lc-" + run_id)));
    EXPECT_EQ(run_ids_with_cgroup().count(run_id), 0u);
    reap(tree);
}

TEST(RunContainment, WithoutCgroupsASubreaperKillsAndReapsTheEscapeesReparentedToIt) {
    // In a process of its own, so that this test process does not become a subreaper.
    int report[2];
    ASSERT_EQ(::pipe(report), 0);
    const pid_t helper = ::fork();
    if (helper == 0) {
        ::prctl(PR_SET_CHILD_SUBREAPER, 1);
        const Tree tree = fork_escaping_tree(nullptr);
        ::kill(tree.child, SIGKILL);  // the escapee's ancestors are gone: it is reparented to us
        ::waitpid(tree.child, nullptr, 0);
        const int reaped = kill_and_reap_children(std::chrono::seconds(5));
        const pid_t results[2] = {tree.escapee, static_cast<pid_t>(reaped)};
        (void)!::write(report[1], results, sizeof results);
        ::_exit(0);
    }
    ::close(report[1]);
    pid_t results[2] = {-1, -1};
    ASSERT_EQ(::read(report[0], results, sizeof results), static_cast<ssize_t>(sizeof results));
    ::close(report[0]);
    ::waitpid(helper, nullptr, 0);
    EXPECT_GE(results[1], 1) << "the escapee was reaped by the subreaper";
    EXPECT_FALSE(running(results[0]));
    EXPECT_NE(::kill(results[0], 0), 0) << "reaped, so gone, not a zombie";
}

// A worker's `client_cmd` runs through plain `sh -c` (issue 15, item 15): a
// shell line works, and the worker's process group carries what the shell
// started.
TEST(ShellWorker, AShellLineWithAnAssignmentAndACdRuns) {
    const fs::path log =
        fs::temp_directory_path() / ("lockcheck-worker-command-" + std::to_string(::getpid()) + ".log");
    fs::remove(log);
    ChildSpec spec{
        {"/bin/sh", "-c", "cd /proc && GREETING=hello; echo \"$GREETING from $(pwd)\" >&2"}, std::nullopt, log, true};
    ChildProcess child(spec);
    ASSERT_TRUE(child.wait_for_exit(std::chrono::seconds(10)));
    EXPECT_EQ(child.exit_status(), 0);
    EXPECT_EQ(read_text(log), "hello from /proc\n");
    fs::remove(log);
}

// Regression: without `exec` the shell stays the worker's process; a pause
// must stop the client it started too, not only the shell.
TEST(ShellWorker, PausingAShellWorkerStopsWhatTheShellStarted) {
    ChildSpec spec{{"/bin/sh", "-c", "sleep 30; true"}, std::nullopt, "/dev/null", true};
    ChildProcess child(spec);
    const pid_t client = child_of(child.pid());
    ASSERT_GT(client, 0) << "the shell started no child";
    child.pause();  // (the shell itself shows 'T', or 'D' when it stopped inside its wait for the child)
    EXPECT_TRUE(reaches_state(client, 'T')) << "the shell's child kept running: state " << state_of(client);
    child.resume();
    EXPECT_TRUE(reaches_state(client, 'S'));
    child.stop(std::chrono::milliseconds(2000));
    EXPECT_FALSE(child.running());
    EXPECT_TRUE(stops_running_within(client, std::chrono::seconds(5))) << "the shell's child outlived the worker";
}

}  // namespace
