// What a worker does to its two output streams (issue 33, item 14): a worker
// whose process exits is noticed at once even while a process it started
// still holds its stdout; a client flooding stderr does not grow its log
// without bound.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "workers/worker_launch.hpp"
#include "workers/worker_process.hpp"
#include "tests/support/scratch_dir.hpp"

using namespace lockcheck;
using Clock = std::chrono::steady_clock;

namespace {

constexpr const char* kHello = R"(read init; echo '{"id":0,"type":"ok","protocol":1}'; read op; )";

WorkerProcess::CallResult one_call(const std::string& after_the_request, const std::filesystem::path& log) {
    ChildSpec spec{{"/bin/sh", "-c", kHello + after_the_request}, std::nullopt, log, true};
    WorkerProcess worker(spec, WorkerInit{});
    worker.await_hello(Clock::now() + std::chrono::seconds(10));
    auto result = worker.call(WorkerRequest{1, "acquire", "k", "o", 1000, nullptr}, std::chrono::seconds(60));
    worker.kill();
    return result;
}

}  // namespace

// Regression: the shell exited, but a process it left behind held the pipe, so
// the op waited out op_timeout_ms and ended "worker timed out".
TEST(WorkerOutput, AWorkerThatExitsIsNoticedWhileItsChildStillHoldsStdout) {
    const lockcheck::testing::ScratchDir dir("worker-exit");
    const auto result = one_call("sleep 120 & exit 0", dir.path() / "worker.log");
    EXPECT_FALSE(result.reply);
    EXPECT_EQ(result.failure, "worker exited");
}

TEST(WorkerOutput, AReplyWrittenJustBeforeTheExitStillArrives) {
    const lockcheck::testing::ScratchDir dir("worker-exit");
    const auto result = one_call(R"(sleep 120 & echo '{"id":1,"type":"ok"}'; exit 0)", dir.path() / "worker.log");
    ASSERT_TRUE(result.reply) << result.failure;
    EXPECT_EQ(result.reply->type, OpType::Ok);
}

// Regression: a client flooding stderr grew its log by 201 MB in 3 s.
TEST(WorkerOutput, AClientFloodingStderrKeepsABoundedLog) {
    const lockcheck::testing::ScratchDir dir("worker-flood");
    std::filesystem::create_directories(dir.path() / "workers");
    Spec spec;
    spec.client_cmd = std::string("yes 'a line of stderr' | head -c 29999985 >&2; ") + kHello;
    const auto launch = worker_launch(spec, {"127.0.0.1:1"}, std::nullopt, "/bin/false", dir.path(), "r1", 0);
    {
        WorkerProcess worker(launch.child, launch.init);
        worker.await_hello(Clock::now() + std::chrono::seconds(30));
        worker.kill();
    }
    const auto size = std::filesystem::file_size(launch.child.output_log);
    EXPECT_LE(size, 3 * kBoundedLogKeep + 200) << "the head, the cut line and at most twice the tail";
    std::ifstream in(launch.child.output_log);
    std::ostringstream text;
    text << in.rdbuf();
    EXPECT_TRUE(text.str().starts_with("a line of stderr\n"));
    EXPECT_NE(text.str().find(" bytes of this log cut here; it keeps the first 1048576 and the last 1048576]\n"),
              std::string::npos);
    EXPECT_TRUE(text.str().ends_with("a line of stderr\n"));
}

// Issue 41, defect 9: a 5 MB init reply from a live worker is named as the over-long line it is.
TEST(WorkerOutput, AnOverLongInitReplyIsNamedNotReportedAsAnExit) {
    const lockcheck::testing::ScratchDir dir("worker-long-init");
    ChildSpec spec{{"/bin/sh", "-c", "read init; head -c 5000000 /dev/zero | tr '\\0' x; echo; sleep 120"},
                   std::nullopt,
                   dir.path() / "worker.log",
                   true};
    WorkerProcess worker(spec, WorkerInit{});
    try {
        worker.await_hello(Clock::now() + std::chrono::seconds(30));
        FAIL() << "a 5 MB hello was accepted";
    } catch (const WorkerError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("answered init with a line longer than 1048576 bytes"), std::string::npos) << what;
        EXPECT_EQ(what.find("exited"), std::string::npos) << what;
    }
    worker.kill();
}
