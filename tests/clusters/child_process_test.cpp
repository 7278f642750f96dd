// ChildProcess and its spawn path (host/process_spawn.hpp), outside a run
// (no cgroup): what a child inherits (fds, signal mask and dispositions,
// environment, process group), its log, the errors of a failed start, the
// death of a child with the thread that started it, and children started
// from several threads at once, each of which must see EOF when its stdin is
// closed (no other child may hold its pipe).
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "host/child_process.hpp"

namespace lockcheck {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

class ChildProcessTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("lockcheck-child-" + std::to_string(::getpid()));
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    fs::path log(const std::string& name) const { return dir_ / name; }
    static std::string read(const fs::path& file) {
        std::ifstream in(file);
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    }
    /// Runs `script` with sh -c, logging to `name`, until it exits; returns the log.
    std::string run_shell(const std::string& script, const std::string& name, std::vector<std::string> env = {}) {
        ChildProcess child(ChildSpec{{"/bin/sh", "-c", script}, std::nullopt, log(name), false, std::move(env)});
        EXPECT_TRUE(child.wait_for_exit(10s));
        EXPECT_EQ(child.exit_status(), 0);
        return read(log(name));
    }

    fs::path dir_;
};

TEST_F(ChildProcessTest, AChildHasOnlyItsStdinStdoutAndStderrEvenWhenTheControllerLeaksAnFd) {
    const int leaked = ::open("/dev/null", O_RDONLY);  // no O_CLOEXEC: fork and exec alone would hand it on
    ASSERT_GE(leaked, 3);
    // Tests each fd number without opening anything (a listing would show its own directory's fd).
    const auto fds =
        run_shell("for f in $(seq 0 64); do [ -e /proc/$$/fd/$f ] && printf '%s ' $f; done; echo", "fds.log");
    ::close(leaked);
    EXPECT_EQ(fds, "0 1 2 \n");
}

TEST_F(ChildProcessTest, AChildStartsWithNoBlockedSignalsAndSigpipeAtItsDefault) {
    sigset_t blocked, previous;
    sigemptyset(&blocked);
    sigaddset(&blocked, SIGTERM);
    ::pthread_sigmask(SIG_BLOCK, &blocked, &previous);
    const auto previous_pipe = ::signal(SIGPIPE, SIG_IGN);  // as the controller does
    const auto status = run_shell("grep -E '^Sig(Blk|Ign)' /proc/self/status", "signals.log");
    ::signal(SIGPIPE, previous_pipe);
    ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    EXPECT_NE(status.find("SigBlk:\t0000000000000000"), std::string::npos) << status;
    const auto ignored = status.substr(status.find("SigIgn:\t") + 8, 16);
    EXPECT_EQ(std::stoull(ignored, nullptr, 16) & (1ULL << (SIGPIPE - 1)), 0U) << status;
}

TEST_F(ChildProcessTest, TheLogIsAppendedToAndTheEnvironmentEntriesAreSetOnTop) {
    { std::ofstream(log("env.log")) << "before\n"; }
    ::setenv("LOCKCHECK_CHILD_TEST_KEPT", "kept", 1);
    ::setenv("LOCKCHECK_CHILD_TEST_REPLACED", "old", 1);
    const auto text =
        run_shell("echo $LOCKCHECK_CHILD_TEST_KEPT $LOCKCHECK_CHILD_TEST_REPLACED; env | grep -c REPLACED", "env.log",
                  {"LOCKCHECK_CHILD_TEST_REPLACED=new"});
    EXPECT_EQ(text, "before\nkept new\n1\n");
}

TEST_F(ChildProcessTest, AChildHasAProcessGroupOfItsOwn) {
    ChildProcess child(ChildSpec{{"sleep", "10"}, std::nullopt, log("sleep.log")});
    EXPECT_EQ(::getpgid(child.pid()), child.pid());
    EXPECT_NE(::getpgid(child.pid()), ::getpgrp());
    child.kill();
    EXPECT_EQ(child.exit_status(), 128 + SIGKILL);
}

TEST_F(ChildProcessTest, AProgramNotInPathOrNotExecutableIsOneClearError) {
    try {
        ChildProcess child(ChildSpec{{"lockcheck-no-such-program"}, std::nullopt, log("missing.log")});
        FAIL() << "started";
    } catch (const SpawnError& e) {
        EXPECT_STREQ(e.what(), "cannot start 'lockcheck-no-such-program': not found in PATH");
    }
    const auto not_executable = log("not-executable");
    std::ofstream(not_executable) << "#!/bin/sh\n";
    try {
        ChildProcess child(ChildSpec{{not_executable.string()}, std::nullopt, log("denied.log")});
        FAIL() << "started";
    } catch (const SpawnError& e) {
        EXPECT_EQ(std::string(e.what()), "cannot start '" + not_executable.string() + "': execve: Permission denied");
    }
}

TEST_F(ChildProcessTest, AChildDiesWithTheThreadThatStartedIt) {
    std::unique_ptr<ChildProcess> child;
    std::thread([&] {
        child = std::make_unique<ChildProcess>(ChildSpec{{"sleep", "30"}, std::nullopt, log("s.log")});
    }).join();
    ASSERT_TRUE(child);
    EXPECT_TRUE(child->wait_for_exit(5s));
    EXPECT_EQ(child->exit_status(), 128 + SIGKILL);
}

TEST_F(ChildProcessTest, ChildrenStartedFromSeveralThreadsAtOnceEachSeeEofWhenTheirStdinCloses) {
    constexpr int kThreads = 4;
    constexpr int kPerThread = 8;
    std::vector<std::unique_ptr<ChildProcess>> children(kThreads * kPerThread);
    {
        std::vector<std::jthread> threads;
        std::atomic<bool> go{false};
        for (int t = 0; t < kThreads; ++t)
            threads.emplace_back([&, t] {
                while (!go) std::this_thread::yield();
                for (int i = 0; i < kPerThread; ++i) {
                    const int n = t * kPerThread + i;
                    children[static_cast<std::size_t>(n)] = std::make_unique<ChildProcess>(
                        ChildSpec{{"cat"}, std::nullopt, log("cat-" + std::to_string(n) + ".log"), true});
                }
                // Stay alive while the children run: they die with the thread that started them.
                for (int i = 0; i < kPerThread; ++i) {
                    auto& child = *children[static_cast<std::size_t>(t * kPerThread + i)];
                    child.close_stdin();
                    EXPECT_TRUE(child.wait_for_exit(10s)) << "cat " << t * kPerThread + i << " saw no EOF";
                }
            });
        go = true;
    }
    for (auto& child : children) EXPECT_EQ(child->exit_status(), 0);
}

}  // namespace
}  // namespace lockcheck
