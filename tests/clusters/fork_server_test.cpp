// The fork server (host/fork_server.hpp, fork_server_process.hpp; its
// wire format is tested in fork_server_protocol_test.cpp): workers forked by a real server process
// (fork_server_echo): each one a child of this process (a child subreaper, as
// a run's controller is) in its own process group, with only its stdio, that
// ChildProcess reaps, kills and sees exit at EOF; spawns from several threads
// at once, each getting the worker forked for its own request; the server's
// end with its object; and spawn's error once the server is gone.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "host/child_process.hpp"
#include "host/fork_server.hpp"
#include "host/fork_server_process.hpp"
#include "host/fork_server_protocol.hpp"
#include "host/process_cgroup.hpp"
#include "host/run_containment.hpp"
#include "tests/clusters/fork_server_test_support.hpp"
#include "tests/support/seqpacket_pair.hpp"

namespace lockcheck {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

using SocketPair = testing::SeqpacketPair;

using namespace fork_server_test_support;

/// How the server forks its workers: as siblings (clone3), or, with clone3
/// filtered out, by the double fork it falls back to.
enum class Forking { Sibling, DoubleForkFallback };

/// This process as a run's controller is: a child subreaper (restored after).
/// Every test runs against a server of each Forking.
class ForkServerTest : public ::testing::TestWithParam<Forking> {
protected:
    void SetUp() override {
        ::prctl(PR_GET_CHILD_SUBREAPER, &previous_subreaper_);
        ASSERT_EQ(::prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
        dir_ = fs::temp_directory_path() / ("lockcheck-fork-server-" + std::to_string(::getpid()));
        fs::create_directories(dir_);
    }
    void TearDown() override {
        ::prctl(PR_SET_CHILD_SUBREAPER, previous_subreaper_);
        fs::remove_all(dir_);
    }

    std::unique_ptr<ForkServer> start_server() {
        // Either flag leaves room in the command line for a worker's title.
        const std::vector<std::string> argv{
            FORK_SERVER_ECHO, GetParam() == Forking::DoubleForkFallback ? "--without-clone3" : "--with-clone3"};
        return std::make_unique<ForkServer>(argv, dir_ / "server.log");
    }
    /// A worker forked by `server`, as the run starts a built-in one.
    std::unique_ptr<ChildProcess> fork_worker(ForkServer& server, const std::string& name) {
        ChildSpec spec{{FORK_SERVER_ECHO}, std::nullopt, dir_ / (name + ".log"), true};
        spec.start = [&server](const SpawnPlan& plan) { return server.spawn(plan); };
        return std::make_unique<ChildProcess>(spec);
    }

    int previous_subreaper_ = 0;
    fs::path dir_;
};

TEST_P(ForkServerTest, WorkersAreChildrenOfTheControllerEachInItsOwnProcessGroup) {
    auto server = start_server();
    std::vector<std::unique_ptr<ChildProcess>> workers;
    std::set<pid_t> pids;
    for (int i = 0; i < 3; ++i) {
        workers.push_back(fork_worker(*server, "worker-" + std::to_string(i)));
        auto& worker = *workers.back();
        std::istringstream ids(read_line(worker.stdout_fd()));
        pid_t pid = 0, parent = 0, group = 0;
        ids >> pid >> parent >> group;
        EXPECT_EQ(pid, worker.pid());
        EXPECT_NE(pid, server->pid());
        EXPECT_EQ(parent, ::getpid()) << "adopted by the controller, not left with the server or init";
        EXPECT_EQ(group, pid) << "a process group of its own, which pause and kill signal";
        pids.insert(pid);
    }
    EXPECT_EQ(pids.size(), 3u);
    // It serves its stdin, sees EOF when it is closed, and exits 0: reaped by the controller.
    write_text(workers[0]->stdin_fd(), "acquire 1\n");
    EXPECT_EQ(read_line(workers[0]->stdout_fd()), "acquire 1");
    workers[0]->close_stdin();
    ASSERT_TRUE(workers[0]->wait_for_exit(10s));
    EXPECT_EQ(workers[0]->exit_status(), 0);
    // One killed by its PID is reaped with the signal, the others unaffected.
    workers[1]->kill();
    EXPECT_EQ(workers[1]->exit_status(), 128 + SIGKILL);
    EXPECT_TRUE(workers[2]->running());
    write_text(workers[2]->stdin_fd(), "still here\n");
    EXPECT_EQ(read_line(workers[2]->stdout_fd()), "still here");
}

TEST_P(ForkServerTest, SpawnsFromSeveralThreadsAtOnceEachGetTheWorkerBehindTheirOwnPipes) {
    constexpr int kThreads = 8, kPerThread = 4;
    auto server = start_server();
    std::vector<std::unique_ptr<ChildProcess>> workers(kThreads * kPerThread);
    {
        std::vector<std::jthread> threads;
        for (int t = 0; t < kThreads; ++t)
            threads.emplace_back([&, t] {
                for (int i = t * kPerThread; i < (t + 1) * kPerThread; ++i) {
                    try {
                        workers[static_cast<std::size_t>(i)] = fork_worker(*server, "worker-" + std::to_string(i));
                    } catch (const SpawnError& e) {
                        ADD_FAILURE() << e.what();
                    }
                }
            });
    }
    std::set<pid_t> pids;
    for (const auto& worker : workers) {
        ASSERT_TRUE(worker);
        // The worker writes its own PID on the stdout it was given: the PID its spawn returned must be it.
        std::istringstream ids(read_line(worker->stdout_fd()));
        pid_t pid = 0, parent = 0;
        ids >> pid >> parent;
        EXPECT_EQ(pid, worker->pid()) << "a spawn got the PID of a worker forked for another request";
        EXPECT_EQ(parent, ::getpid());
        pids.insert(pid);
    }
    EXPECT_EQ(pids.size(), workers.size());
    for (const auto& worker : workers) {
        worker->close_stdin();
        EXPECT_TRUE(worker->wait_for_exit(10s));
        EXPECT_EQ(worker->exit_status(), 0);
    }
}

TEST_P(ForkServerTest, AWorkerHasOnlyItsStdioNotTheServersSocketOrAnotherWorkersPipes) {
    auto server = start_server();
    auto first = fork_worker(*server, "first");
    auto second = fork_worker(*server, "second");
    read_line(second->stdout_fd());
    std::vector<std::string> fds;
    for (const auto& entry : fs::directory_iterator("/proc/" + std::to_string(second->pid()) + "/fd"))
        fds.push_back(entry.path().filename().string());
    std::sort(fds.begin(), fds.end());
    EXPECT_EQ(fds, (std::vector<std::string>{"0", "1", "2"}));
    // Nothing but the first worker holds its stdin: closing it is its EOF.
    first->close_stdin();
    EXPECT_TRUE(first->wait_for_exit(10s));
}

TEST_P(ForkServerTest, TheServerEndsAndIsReapedWithItsObject) {
    auto server = start_server();
    const pid_t pid = server->pid();
    auto worker = fork_worker(*server, "worker");
    server.reset();
    EXPECT_EQ(::kill(pid, 0), -1) << "the fork server is still there";
    EXPECT_EQ(errno, ESRCH) << "the fork server was not reaped";
    EXPECT_TRUE(worker->running()) << "a worker outlives the server that forked it";
}

TEST_P(ForkServerTest, GarbageOnTheSocketGetsOneErrorReplyAndTheServerGoesOn) {
    SocketPair socket;
    std::fflush(nullptr);  // nothing buffered may be written twice
    const pid_t server = ::fork();
    ASSERT_GE(server, 0);
    if (server == 0) {
        ::close(socket.ends[0]);
        const auto served = serve_forks(socket.ends[1]);
        if (!served) {  // a forked worker: say who it is, then go
            std::printf("%d\n", static_cast<int>(::getppid()));
            std::fflush(stdout);
        }
        ::_exit(served.value_or(0));
    }
    ASSERT_EQ(::send(socket.ends[0], "hello?", 6, 0), 6);
    try {
        receive_fork_reply(socket.ends[0], 10s);
        ADD_FAILURE() << "garbage got a worker";
    } catch (const ForkRefused& e) {
        EXPECT_STREQ(e.what(), "malformed fork request: expected \"fork\" with 3 or 4 fds, got 'hello?' with 0 fd(s)");
    }
    Pipe out;
    const int null = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    send_fork_request(socket.ends[0], {{null, out.ends[1], null}});
    const pid_t worker = receive_fork_reply(socket.ends[0], 10s);
    ::close(null);
    ::close(out.ends[1]);
    out.ends[1] = -1;
    EXPECT_EQ(read_line(out.ends[0]), std::to_string(::getpid()));
    int status = -1;
    EXPECT_EQ(::waitpid(worker, &status, 0), worker) << "the worker is not this process's child";
    socket.close_end(0);  // EOF: the server exits 0
    EXPECT_EQ(::waitpid(server, &status, 0), server);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
}

TEST_P(ForkServerTest, ASpawnAfterTheServerDiedIsOneClearError) {
    auto server = start_server();
    ::kill(server->pid(), SIGKILL);
    try {
        fork_worker(*server, "worker");
        FAIL() << "a worker was started without a server";
    } catch (const SpawnError& e) {
        EXPECT_NE(std::string(e.what()).find("fork server (pid " + std::to_string(server->pid()) + "): "),
                  std::string::npos)
            << e.what();
    }
}

/// The fields a forked fork_server_echo worker writes first, before it reads anything.
struct WorkerReport {
    pid_t pid = 0, parent = 0, group = 0;
    std::string thread_state, cgroup;
};

WorkerReport read_report(const ChildProcess& worker) {
    WorkerReport report;
    std::istringstream fields(read_line(worker.stdout_fd()));
    fields >> report.pid >> report.parent >> report.group >> report.thread_state >> report.cgroup;
    return report;
}

std::string cgroup_v2_of(pid_t pid) {
    std::ifstream cgroups("/proc/" + std::to_string(pid) + "/cgroup");
    for (std::string line; std::getline(cgroups, line);)
        if (line.rfind("0::", 0) == 0) return line.substr(3);
    return "-";
}

TEST_P(ForkServerTest, AWorkersCLibraryKnowsItsOwnThreadAndItCanStartThreads) {
    auto server = start_server();
    auto worker = fork_worker(*server, "worker");
    const auto report = read_report(*worker);
    EXPECT_EQ(report.pid, worker->pid());
    // glibc's record of the thread (its TID) must be the worker's, not the server's it was copied from.
    EXPECT_EQ(report.thread_state, "thread-state-ok");
}

TEST_P(ForkServerTest, AWorkerRenamesItselfWithTheCommandLineTheServerFound) {
    auto server = start_server();
    auto worker = fork_worker(*server, "worker");
    read_report(*worker);  // written once it has renamed itself
    std::ifstream cmdline_file("/proc/" + std::to_string(worker->pid()) + "/cmdline");
    const std::string cmdline((std::istreambuf_iterator<char>(cmdline_file)), std::istreambuf_iterator<char>());
    std::vector<std::string> words;
    std::istringstream split(cmdline);
    for (std::string word; std::getline(split, word, '\0');)
        if (!word.empty()) words.push_back(word);
    EXPECT_EQ(words, (std::vector<std::string>{FORK_SERVER_ECHO, "echo-worker"}));
}

TEST_P(ForkServerTest, TheServerSaysInItsLogWhenItFallsBackToTheDoubleFork) {
    auto server = start_server();
    auto worker = fork_worker(*server, "worker");
    EXPECT_EQ(read_report(*worker).parent, ::getpid());
    server.reset();
    const bool fell_back = log_text(dir_ / "server.log").find("double-forking them instead") != std::string::npos;
    EXPECT_EQ(fell_back, GetParam() == Forking::DoubleForkFallback) << log_text(dir_ / "server.log");
}

TEST_P(ForkServerTest, InARunEachWorkerIsInACgroupOfItsOwnBeforeItReadsAnything) {
    if (!lockcheck_cgroups() || lockcheck_cgroups()->kind != CgroupKind::Unified)
        GTEST_SKIP() << "no cgroup v2 hierarchy lockcheck can use (needs root)";
    const std::string run_id = "forksrv" + std::to_string(::getpid());
    RunContainment containment(run_id);
    auto server = start_server();
    const auto server_cgroup = cgroup_v2_of(server->pid());
    std::set<std::string> cgroups{server_cgroup};
    std::vector<std::unique_ptr<ChildProcess>> workers;
    for (int i = 0; i < 3; ++i) {
        workers.push_back(fork_worker(*server, "worker-" + std::to_string(i)));
        const auto report = read_report(*workers.back());
        EXPECT_EQ(report.pid, workers.back()->pid());
        // What the worker saw of itself before it read its stdin: its own cgroup in the run's, already.
        EXPECT_NE(report.cgroup.find("/lc-" + run_id + "/c"), std::string::npos) << report.cgroup;
        EXPECT_EQ(report.cgroup, cgroup_v2_of(report.pid));
        EXPECT_TRUE(cgroups.insert(report.cgroup).second) << "worker " << i << " shares cgroup " << report.cgroup;
    }
    workers.clear();  // killed with their cgroups, before the server and the run's
    server.reset();
}

INSTANTIATE_TEST_SUITE_P(Forking, ForkServerTest, ::testing::Values(Forking::Sibling, Forking::DoubleForkFallback),
                         [](const auto& param_info) {
                             return param_info.param == Forking::Sibling ? "Sibling" : "DoubleForkFallback";
                         });

TEST(ForkServerWithoutSubreaper, IsRefusedBecauseItsWorkersWouldGoToInit) {
    int subreaper = 0;
    ::prctl(PR_GET_CHILD_SUBREAPER, &subreaper);
    ASSERT_EQ(subreaper, 0) << "the test process is a subreaper already";
    EXPECT_THROW(ForkServer({FORK_SERVER_ECHO}, "/dev/null"), std::logic_error);
}

}  // namespace
}  // namespace lockcheck
