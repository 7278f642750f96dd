// How a run starts a worker (issue 15, item 15): a client_cmd runs through
// plain `sh -c`, so shell lines work, and pausing the worker pauses what the
// shell started; the init carries the lease.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "clusters/child_process.hpp"
#include "harness/worker_command.hpp"

namespace fs = std::filesystem;
using namespace lockcheck;

namespace {

std::string read_text(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

/// The state letter of /proc/PID/stat ('S', 'T', ...), or 0 when it is gone.
char state_of(pid_t pid) {
    const auto stat = read_text(fs::path("/proc") / std::to_string(pid) / "stat");
    return stat.empty() ? '\0' : stat[stat.rfind(')') + 2];
}

/// The first child of `pid`, waiting up to 5 s for it to appear.
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

bool reaches_state(pid_t pid, char state) {
    for (int i = 0; i < 500; ++i) {
        if (state_of(pid) == state) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

}  // namespace

// Regression: the command ran as `/bin/sh -c "exec CMD"`, so `VAR=1 cmd` and
// `cd d && cmd` failed.
TEST(WorkerCommand, AClientCommandRunsThroughPlainShAndTheInitCarriesTheLease) {
    Spec spec;
    spec.client_cmd = "cd /tmp && LOCK_CLIENT_DEBUG=1 ./my-client --fast";
    spec.ttl_ms = 2500;
    const auto launch =
        worker_launch(spec, {"10.77.1.1:6379"}, std::nullopt, "/usr/bin/lockcheck", "/tmp/run", "r1", 4);
    EXPECT_EQ(launch.child.argv, (std::vector<std::string>{"/bin/sh", "-c", *spec.client_cmd}));
    EXPECT_EQ(launch.init.ttl_ms, 2500);
    EXPECT_NE(encode_init(launch.init).find("\"ttl_ms\":2500"), std::string::npos) << encode_init(launch.init);
    EXPECT_EQ(decode_init(encode_init(launch.init)).ttl_ms, 2500);
    EXPECT_EQ(launch.init.process, 4);
}

TEST(WorkerCommand, AShellLineWithAnAssignmentAndACdRuns) {
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
TEST(WorkerCommand, PausingAShellWorkerStopsWhatTheShellStarted) {
    ChildSpec spec{{"/bin/sh", "-c", "sleep 30; true"}, std::nullopt, "/dev/null", true};
    ChildProcess child(spec);
    const pid_t client = child_of(child.pid());
    ASSERT_GT(client, 0) << "the shell started no child";
    child.pause();
    EXPECT_TRUE(reaches_state(child.pid(), 'T'));
    EXPECT_TRUE(reaches_state(client, 'T')) << "the shell's child kept running: state " << state_of(client);
    child.resume();
    EXPECT_TRUE(reaches_state(client, 'S'));
    child.stop(std::chrono::milliseconds(2000));
    EXPECT_FALSE(child.running());
    EXPECT_TRUE(state_of(client) == '\0' || state_of(client) == 'Z') << "the shell's child outlived the worker";
}
