// Runtime netns without a namespace (no root needed): a real child process
// is started, paused (its state read back from /proc), resumed and killed,
// and its log, file copy and refusals are those NodeRuntime promises.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "clusters/clock_offset.hpp"
#include "clusters/runtimes/netns_runtime.hpp"
#include "clusters/runtimes/node_runtime_registry.hpp"
#include "tests/support/scratch_dir.hpp"

using namespace lockcheck;

namespace {

/// The whole content of `path` ("" when it cannot be read).
std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// The state letter of process `pid` in /proc/PID/stat ('T': stopped), or '?'.
char process_state(pid_t pid) {
    const std::string stat = read_text("/proc/" + std::to_string(pid) + "/stat");
    const auto end_of_name = stat.rfind(')');
    return end_of_name == std::string::npos || end_of_name + 2 >= stat.size() ? '?' : stat[end_of_name + 2];
}

/// Waits up to 5 s, in 10 ms steps, until `done` holds.
template <typename Predicate>
bool within_five_seconds(Predicate done) {
    for (int i = 0; i < 500; ++i) {
        if (done()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return done();
}

class NetnsRuntimeTest : public ::testing::Test {
protected:
    lockcheck::testing::ScratchDir dir{"netns-runtime"};
    std::unique_ptr<NodeRuntime> runtime = make_node_runtime(
        "netns", NodePlacement{"n1", "127.0.0.1", std::nullopt, dir.path() / "server.log", "", {}, "", {}});
};

TEST_F(NetnsRuntimeTest, StartsPausesResumesAndKillsTheServer) {
    EXPECT_EQ(runtime->address(), "127.0.0.1");
    EXPECT_FALSE(runtime->running());
    EXPECT_EQ(runtime->pid(), -1);
    runtime->start({{"sh", "-c", "echo started as $NODE_ROLE; exec sleep 30"}, {"NODE_ROLE=primary"}});
    ASSERT_TRUE(runtime->running());
    const pid_t pid = runtime->pid();
    ASSERT_GT(pid, 0);
    EXPECT_TRUE(within_five_seconds([&] { return runtime->read_log() == "started as primary\n"; }))
        << runtime->read_log();
    runtime->pause();
    EXPECT_TRUE(within_five_seconds([&] { return process_state(pid) == 'T'; })) << process_state(pid);
    runtime->resume();
    EXPECT_TRUE(within_five_seconds([&] { return process_state(pid) != 'T'; })) << process_state(pid);
    runtime->kill();
    EXPECT_FALSE(runtime->running());
    EXPECT_EQ(runtime->exit_status(), 128 + 9);
}

TEST_F(NetnsRuntimeTest, StopEndsTheServerWithSigterm) {
    runtime->start({{"sleep", "30"}, {}});
    ASSERT_TRUE(runtime->running());
    runtime->stop(std::chrono::seconds(3));
    EXPECT_FALSE(runtime->running());
    EXPECT_EQ(runtime->exit_status(), 128 + 15);
}

TEST_F(NetnsRuntimeTest, AMissingProgramIsARuntimeError) {
    EXPECT_THROW(runtime->start({{"lockcheck-no-such-server"}, {}}), NodeRuntimeError);
    EXPECT_FALSE(runtime->running());
}

TEST_F(NetnsRuntimeTest, CopiesAFileInReplacingWhatIsThere) {
    const auto from = dir.path() / "from.conf";
    const auto to = dir.path() / "to.conf";
    std::ofstream(from) << "port 6379\n";
    std::ofstream(to) << "old\n";
    runtime->copy_in(from, to);
    EXPECT_EQ(read_text(to), "port 6379\n");
    EXPECT_THROW(runtime->copy_in(dir.path() / "missing", to), NodeRuntimeError);
}

TEST_F(NetnsRuntimeTest, RewritesTheStartOfAFileInPlaceWithoutTruncatingIt) {
    const auto file = dir.path() / "clock-offset";
    ClockState state = lc_clock_identity();
    state.realtime.offset_ns = -2'000'000'000;
    runtime->rewrite_in_place(file, clock_state_text(state));
    EXPECT_EQ(read_text(file), clock_state_text(state));
    std::ofstream(file, std::ios::app) << "tail";
    runtime->rewrite_in_place(file, clock_state_text(lc_clock_identity()));
    EXPECT_EQ(read_text(file), clock_state_text(lc_clock_identity()) + "tail");
    EXPECT_THROW(runtime->rewrite_in_place(dir.path() / "missing" / "file", "0"), NodeRuntimeError);
}

TEST_F(NetnsRuntimeTest, WithoutANamespaceItRefusesToRunInOne) {
    EXPECT_FALSE(runtime->has_own_network());
    EXPECT_THROW(runtime->run_in_network({"true"}), NodeRuntimeError);
}

TEST(NodeRuntimeRegistry, AnUnknownRuntimeIsRefusedWithTheKnownOnes) {
    try {
        make_node_runtime("vm", NodePlacement{"n1", "127.0.0.1", std::nullopt, "/nonexistent", "", {}, "", {}});
        FAIL();
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ(e.what(), "unknown runtime 'vm'; the runtimes are netns, docker, ssh");
    }
}

}  // namespace
