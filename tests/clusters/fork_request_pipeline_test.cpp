// ForkRequestPipeline (host/fork_request_pipeline.hpp) against a stand-in
// server on the other end of a socketpair, a thread that reads requests and
// answers them in order as the real one does: requests from several threads
// are in flight together (the stand-in reads them all before it answers any),
// each reply reaches the caller whose request it answers (the stand-in learns
// a caller's number from the pipe the caller sent), a refusal fails its own
// request only, and a server that exits or does not answer fails every
// request in flight and every later one with that one error.
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "host/fork_request_pipeline.hpp"
#include "host/fork_server_protocol.hpp"
#include "tests/support/seqpacket_pair.hpp"

namespace lockcheck {
namespace {

using namespace std::chrono_literals;

/// The controller's end (0) and the stand-in server's end (1).
using ServerSocket = testing::SeqpacketPair;

/// What one caller sends: a pipe holding its number ("7"), as its stdin, and
/// /dev/null as its stdout and stderr.
struct CallerStdio {
    int pipe_ends[2] = {-1, -1};
    int null = -1;
    explicit CallerStdio(int number) {
        EXPECT_EQ(::pipe2(pipe_ends, O_CLOEXEC), 0);
        const std::string text = std::to_string(number);
        EXPECT_EQ(::write(pipe_ends[1], text.data(), text.size()), static_cast<ssize_t>(text.size()));
        ::close(pipe_ends[1]);
        pipe_ends[1] = -1;
        null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    }
    ~CallerStdio() {
        for (const int fd : {pipe_ends[0], pipe_ends[1], null})
            if (fd >= 0) ::close(fd);
    }
    ForkRequest fds() const { return {{pipe_ends[0], null, null}}; }
};

/// The stand-in server: reads one request within 5 s and returns the caller's
/// number from the stdin it carried; -1 when none came.
int read_caller_number(int socket) {
    pollfd ready{socket, POLLIN, 0};
    if (::poll(&ready, 1, 5000) != 1) return -1;
    const auto request = receive_fork_request(socket);
    if (!request) return -1;
    char text[16] = {};
    const ssize_t got = ::read(request->stdio[0], text, sizeof text - 1);
    for (const int fd : request->stdio) ::close(fd);
    return got > 0 ? std::stoi(text) : -1;
}

/// The pid the stand-in answers to caller `number`.
pid_t pid_for(int number) { return 1000 + number; }

/// Each caller's outcome: its pid, or what it threw.
struct Outcome {
    pid_t pid = -1;
    std::string refused;
    std::string lost;
};

/// Calls pipeline.fork from `callers` threads at once, caller i sending its number i.
std::vector<Outcome> fork_from_threads(ForkRequestPipeline& pipeline, int callers) {
    std::vector<Outcome> outcomes(static_cast<std::size_t>(callers));
    std::vector<std::jthread> threads;
    for (int i = 0; i < callers; ++i)
        threads.emplace_back([&pipeline, &outcomes, i] {
            const CallerStdio stdio(i);
            auto& outcome = outcomes[static_cast<std::size_t>(i)];
            try {
                outcome.pid = pipeline.fork(stdio.fds());
            } catch (const ForkRefused& e) {
                outcome.refused = e.what();
            } catch (const ForkProtocolError& e) {
                outcome.lost = e.what();
            }
        });
    threads.clear();  // joins
    return outcomes;
}

TEST(ForkRequestPipeline, ManyRequestsAreInFlightTogetherAndEachReplyReachesItsCaller) {
    constexpr int kCallers = 16;
    ServerSocket socket;
    ForkRequestPipeline pipeline(socket.ends[0], 10s);
    std::vector<int> order;  // the callers' numbers, in the order their requests arrived
    std::jthread server([&] {
        // Every request is read before any is answered: a pipeline that waits
        // for one reply before it sends the next request gets no second one here.
        for (int i = 0; i < kCallers; ++i) {
            const int number = read_caller_number(socket.ends[1]);
            if (number < 0) break;
            order.push_back(number);
        }
        for (const int number : order) send_fork_pid(socket.ends[1], pid_for(number));
    });
    const auto outcomes = fork_from_threads(pipeline, kCallers);
    server.join();
    EXPECT_EQ(order.size(), static_cast<std::size_t>(kCallers)) << "requests were not in flight together";
    for (int i = 0; i < kCallers; ++i) {
        const auto& outcome = outcomes[static_cast<std::size_t>(i)];
        EXPECT_EQ(outcome.pid, pid_for(i))
            << "caller " << i << " got another's reply" << outcome.refused << outcome.lost;
    }
}

TEST(ForkRequestPipeline, ARefusalFailsItsOwnRequestOnly) {
    constexpr int kCallers = 3;
    ServerSocket socket;
    ForkRequestPipeline pipeline(socket.ends[0], 10s);
    constexpr int kRefused = 1;
    std::jthread server([&] {
        std::vector<int> order;
        for (int i = 0; i < kCallers; ++i) order.push_back(read_caller_number(socket.ends[1]));
        for (const int number : order) {
            if (number == kRefused)
                send_fork_error(socket.ends[1], "fork: Resource temporarily unavailable");
            else
                send_fork_pid(socket.ends[1], pid_for(number));
        }
    });
    const auto outcomes = fork_from_threads(pipeline, kCallers);
    server.join();
    for (int i = 0; i < kCallers; ++i) {
        const auto& outcome = outcomes[static_cast<std::size_t>(i)];
        EXPECT_EQ(outcome.lost, "") << i;
        EXPECT_EQ(outcome.refused, i == kRefused ? "fork: Resource temporarily unavailable" : "") << i;
        EXPECT_EQ(outcome.pid, i == kRefused ? -1 : pid_for(i)) << i;
    }
    // The exchange is sound after a refusal: the next request gets its own reply.
    std::jthread next([&] { send_fork_pid(socket.ends[1], pid_for(read_caller_number(socket.ends[1]))); });
    EXPECT_EQ(pipeline.fork(CallerStdio(7).fds()), pid_for(7));
}

TEST(ForkRequestPipeline, AServerThatExitsWithRequestsInFlightIsOneErrorForEachAndEveryLaterOne) {
    constexpr int kCallers = 4;
    ServerSocket socket;
    ForkRequestPipeline pipeline(socket.ends[0], 10s);
    int answered = -1;
    std::jthread server([&] {
        std::vector<int> order;
        for (int i = 0; i < kCallers; ++i) order.push_back(read_caller_number(socket.ends[1]));
        answered = order.front();
        send_fork_pid(socket.ends[1], pid_for(answered));  // one answered, then the server is gone
        socket.close_end(1);
    });
    const auto outcomes = fork_from_threads(pipeline, kCallers);
    server.join();
    ASSERT_GE(answered, 0);
    for (int i = 0; i < kCallers; ++i) {
        const auto& outcome = outcomes[static_cast<std::size_t>(i)];
        if (i == answered) {
            EXPECT_EQ(outcome.pid, pid_for(i));
            continue;
        }
        EXPECT_EQ(outcome.pid, -1) << i;
        EXPECT_EQ(outcome.lost, "the fork server exited") << i;
    }
    // A later request is not sent (that would fail with "cannot send"): it gets the same reason.
    try {
        pipeline.fork(CallerStdio(9).fds());
        FAIL() << "a request was answered by a server that exited";
    } catch (const ForkProtocolError& e) {
        EXPECT_STREQ(e.what(), "the fork server exited");
    }
}

TEST(ForkRequestPipeline, NoAnswerInTimeLosesTheExchangeSoALateReplyIsNeverTakenForTheNextOnes) {
    ServerSocket socket;
    ForkRequestPipeline pipeline(socket.ends[0], 100ms);
    try {
        pipeline.fork(CallerStdio(1).fds());
        FAIL() << "no reply was taken for one";
    } catch (const ForkProtocolError& e) {
        EXPECT_STREQ(e.what(), "the fork server did not answer within 100 ms");
    }
    // The late reply to request 1 is there now; the next request must not take it for its own.
    EXPECT_EQ(read_caller_number(socket.ends[1]), 1);
    send_fork_pid(socket.ends[1], pid_for(1));
    try {
        pipeline.fork(CallerStdio(2).fds());
        FAIL() << "a late reply was taken for the next request's";
    } catch (const ForkProtocolError& e) {
        EXPECT_STREQ(e.what(), "the fork server did not answer within 100 ms");
    }
}

}  // namespace
}  // namespace lockcheck
