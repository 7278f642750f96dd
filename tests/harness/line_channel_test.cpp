// Waiting for a worker's reply after Ctrl-C: a reply on its way still
// arrives, a worker that hangs is given up on after a short grace instead of
// the whole op_timeout_ms.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "harness/line_channel.hpp"

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
