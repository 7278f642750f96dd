// Waiting for a worker's reply after Ctrl-C: a reply on its way still
// arrives, a worker that hangs is given up on after a short grace instead of
// the whole op_timeout_ms.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "host/line_channel.hpp"
#include "workers/worker_process.hpp"
#include "tests/support/scratch_dir.hpp"

using namespace lockcheck;
using Clock = std::chrono::steady_clock;

namespace {

/// A pipe whose two ends close themselves.
struct Pipe {
    int fds[2] = {-1, -1};
    Pipe() { EXPECT_EQ(::pipe(fds), 0); }
    ~Pipe() {
        for (const int fd : fds)
            if (fd >= 0) ::close(fd);
    }
};

double seconds_since(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

}  // namespace

TEST(LineChannelInterrupt, AHungWorkerIsGivenUpOnSoonAfterAnInterrupt) {
    Pipe from_worker, to_worker;
    LineChannel channel(from_worker.fds[0], to_worker.fds[1]);
    std::stop_source interrupt;
    std::thread ctrl_c([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        interrupt.request_stop();
    });
    std::string line;
    const auto start = Clock::now();
    EXPECT_EQ(channel.read_line(line, Clock::now() + std::chrono::minutes(10), interrupt.get_token()),
              LineChannel::ReadStatus::Interrupted);
    EXPECT_LT(seconds_since(start), 0.1 + 1.0 + 1.0) << "the grace, not the 10-minute op timeout";
    EXPECT_GE(seconds_since(start), 1.0) << "a reply on its way gets the grace";
    ctrl_c.join();
}

TEST(LineChannelInterrupt, AReplyWithinTheGraceStillArrives) {
    Pipe from_worker, to_worker;
    LineChannel channel(from_worker.fds[0], to_worker.fds[1]);
    std::stop_source interrupt;
    interrupt.request_stop();
    std::thread worker([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        EXPECT_EQ(::write(from_worker.fds[1], "{\"id\":7}\n", 9), 9);
    });
    std::string line;
    EXPECT_EQ(channel.read_line(line, Clock::now() + std::chrono::minutes(10), interrupt.get_token()),
              LineChannel::ReadStatus::Line);
    EXPECT_EQ(line, "{\"id\":7}");
    worker.join();
}

TEST(LineChannelInterrupt, AnEarlierDeadlineIsStillATimeout) {
    Pipe from_worker, to_worker;
    LineChannel channel(from_worker.fds[0], to_worker.fds[1]);
    std::stop_source interrupt;
    interrupt.request_stop();
    std::string line;
    EXPECT_EQ(channel.read_line(line, Clock::now() + std::chrono::milliseconds(200), interrupt.get_token()),
              LineChannel::ReadStatus::Timeout);
}

// Issue 33, item 14: a refusal of init whose reason holds a newline printed two lines.
TEST(WorkerInitRefusal, AReasonWithNewlinesAndControlCharactersIsOneLine) {
    const lockcheck::testing::ScratchDir dir("init-refusal");
    ChildSpec spec{{"/bin/sh", "-c",
                    R"(read init; printf '%s\n' '{"id":0,"type":"fail","error":"no\nsecond line\u001b[2J"}')"},
                   std::nullopt,
                   dir.path() / "worker.log",
                   true};
    WorkerProcess worker(spec, WorkerInit{});
    try {
        worker.await_hello(Clock::now() + std::chrono::seconds(10));
        ADD_FAILURE() << "the refusal was taken for a hello";
    } catch (const WorkerError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("worker refused init: no"), std::string::npos) << what;
        EXPECT_NE(what.find("second line"), std::string::npos) << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
        EXPECT_EQ(what.find('\x1b'), std::string::npos) << what;
    }
    worker.kill();
}

// Issue 33, item 3: a client that printed half a reply and slept, with op_timeout_ms 3600000, kept the run
// going past its time limit; only Ctrl-C ended it.
TEST(LineChannelEnding, AHalfReplyIsGivenUpOnAfterTheEndingGraceNotTheOpTimeout) {
    Pipe from_worker, to_worker;
    LineChannel channel(from_worker.fds[0], to_worker.fds[1]);
    ASSERT_EQ(::write(from_worker.fds[1], "{\"id\":7,", 8), 8);  // and then nothing more
    std::stop_source ending;
    ending.request_stop();
    std::string line;
    EXPECT_EQ(channel.read_line(line, Clock::now() + std::chrono::hours(1),
                                ReplyCutoff{{}, ending.get_token(), std::chrono::milliseconds(200)}),
              LineChannel::ReadStatus::Interrupted);
}

TEST(LineChannelEnding, AWorkerCallAfterTheRunsEndSaysSo) {
    const lockcheck::testing::ScratchDir dir("run-ended");
    ChildSpec spec{{"/bin/sh", "-c", R"(read init; echo '{"id":0,"type":"ok","protocol":1}'; read op; exec sleep 60)"},
                   std::nullopt,
                   dir.path() / "worker.log",
                   true};
    WorkerProcess worker(spec, WorkerInit{});
    worker.await_hello(Clock::now() + std::chrono::seconds(10));
    std::stop_source ending;
    ending.request_stop();
    const auto result = worker.call(WorkerRequest{1, "acquire", "k", "o", 1000, nullptr}, std::chrono::hours(1),
                                    {{}, ending.get_token(), std::chrono::milliseconds(200)});
    EXPECT_FALSE(result.reply);
    EXPECT_TRUE(result.interrupted);
    EXPECT_EQ(result.failure, "run ended: no reply within 200 ms of its end");
    worker.kill();
}
