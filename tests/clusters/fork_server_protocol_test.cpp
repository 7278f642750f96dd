// The fork server's wire format (host/fork_server_protocol.hpp) and its
// errors: a request carries three usable close-on-exec fds (and the worker's
// cgroup directory as a fourth), garbage on the socket is one clear error and
// the fds it carried are closed, and replies are a PID or the server's error.
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "host/fork_server_protocol.hpp"
#include "tests/clusters/fork_server_test_support.hpp"
#include "tests/support/seqpacket_pair.hpp"

namespace lockcheck {
namespace {

namespace fs = std::filesystem;

using SocketPair = testing::SeqpacketPair;
using namespace fork_server_test_support;

TEST(ForkServerProtocol, ARequestCarriesThreeUsableCloseOnExecFds) {
    SocketPair socket;
    Pipe in, out, err;
    send_fork_request(socket.ends[0], {{in.ends[0], out.ends[1], err.ends[1]}});
    const auto received = receive_fork_request(socket.ends[1]);
    ASSERT_TRUE(received);
    EXPECT_EQ(received->cgroup_dir, -1) << "a request without a cgroup got one";
    for (const int fd : received->stdio) EXPECT_EQ(::fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC) << fd;
    write_text(received->stdio[1], "to stdout");  // the copy reaches the original pipe
    char text[16] = {};
    EXPECT_EQ(::read(out.ends[0], text, sizeof text), 9);
    EXPECT_STREQ(text, "to stdout");
    for (const int fd : received->stdio) ::close(fd);
}

TEST(ForkServerProtocol, ARequestCarriesTheWorkersCgroupDirectoryAsAFourthFd) {
    SocketPair socket;
    Pipe out;
    const fs::path dir = fs::temp_directory_path() / ("lockcheck-fork-request-" + std::to_string(::getpid()));
    fs::create_directories(dir / "marker");
    const int dir_fd = ::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    ASSERT_GE(dir_fd, 0);
    send_fork_request(socket.ends[0], {{out.ends[0], out.ends[1], out.ends[1]}, dir_fd});
    ::close(dir_fd);
    const auto received = receive_fork_request(socket.ends[1]);
    ASSERT_TRUE(received);
    ASSERT_GE(received->cgroup_dir, 0);
    EXPECT_EQ(::fcntl(received->cgroup_dir, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
    struct stat marker {};
    EXPECT_EQ(::fstatat(received->cgroup_dir, "marker", &marker, 0), 0) << "the fd is not the directory sent";
    for (const int fd : received->stdio) ::close(fd);
    ::close(received->cgroup_dir);
    fs::remove_all(dir);
}

TEST(ForkServerProtocol, TheControllerClosingItsEndIsNoRequest) {
    SocketPair socket;
    socket.close_end(0);
    EXPECT_FALSE(receive_fork_request(socket.ends[1]));
}

TEST(ForkServerProtocol, GarbageIsOneClearErrorAndTheFdsItCarriedAreClosed) {
    SocketPair socket;
    Pipe carried;
    // "spawn" instead of "fork", with 3 fds: the receiver must not keep them.
    const std::string garbage = "spawn\x01";
    send_with_fds(socket.ends[0], garbage, std::array{carried.ends[0], carried.ends[0], carried.ends[1]});
    // The received copies get the lowest free numbers: note them to check they are closed.
    int lowest_free[3];
    for (int& fd : lowest_free) fd = ::fcntl(0, F_DUPFD_CLOEXEC, 3);
    for (const int fd : lowest_free) ::close(fd);
    try {
        receive_fork_request(socket.ends[1]);
        FAIL() << "garbage was taken for a request";
    } catch (const ForkProtocolError& e) {
        EXPECT_STREQ(e.what(), "malformed fork request: expected \"fork\" with 3 or 4 fds, got 'spawn?' with 3 fd(s)");
    }
    for (const int fd : lowest_free) EXPECT_FALSE(is_open(fd)) << "a carried fd is kept: " << fd;
}

TEST(ForkServerProtocol, ARequestWithoutItsThreeFdsIsRefused) {
    SocketPair socket;
    ASSERT_EQ(::send(socket.ends[0], "fork", 4, 0), 4);
    try {
        receive_fork_request(socket.ends[1]);
        FAIL() << "a request without fds was accepted";
    } catch (const ForkProtocolError& e) {
        EXPECT_STREQ(e.what(), "malformed fork request: expected \"fork\" with 3 or 4 fds, got 'fork' with 0 fd(s)");
    }
}

TEST(ForkServerProtocol, RepliesAreAPidOrTheServersErrorAndAnythingElseIsNamed) {
    SocketPair socket;
    const auto reply = [&](const std::string& text) {
        EXPECT_EQ(::send(socket.ends[1], text.data(), text.size(), 0), static_cast<ssize_t>(text.size()));
        return receive_fork_reply(socket.ends[0], 1s);
    };
    EXPECT_EQ(reply("pid 4242"), 4242);
    EXPECT_TRUE(send_fork_pid(socket.ends[1], 17));
    EXPECT_EQ(receive_fork_reply(socket.ends[0], 1s), 17);
    EXPECT_TRUE(send_fork_error(socket.ends[1], "fork: Resource temporarily unavailable"));
    EXPECT_THROW(
        {
            try {
                receive_fork_reply(socket.ends[0], 1s);
            } catch (const ForkRefused& e) {
                EXPECT_STREQ(e.what(), "fork: Resource temporarily unavailable");
                throw;
            }
        },
        ForkRefused);
    for (const std::string garbage : {"pid", "pid 12x", "pid -3", "hello"}) {
        try {
            reply(garbage);
            ADD_FAILURE() << "'" << garbage << "' was taken for a reply";
        } catch (const ForkRefused&) {
            ADD_FAILURE() << "'" << garbage << "' was taken for the server's error";
        } catch (const ForkProtocolError& e) {
            EXPECT_EQ(std::string(e.what()),
                      "malformed fork server reply '" + garbage + "': expected \"pid N\" or \"error TEXT\"");
        }
    }
    try {
        receive_fork_reply(socket.ends[0], 50ms);
        ADD_FAILURE() << "no reply was taken for one";
    } catch (const ForkProtocolError& e) {
        EXPECT_STREQ(e.what(), "the fork server did not answer within 50 ms");
    }
    socket.close_end(1);
    try {
        receive_fork_reply(socket.ends[0], 1s);
        ADD_FAILURE() << "EOF was taken for a reply";
    } catch (const ForkProtocolError& e) {
        EXPECT_STREQ(e.what(), "the fork server exited");
    }
}

}  // namespace
}  // namespace lockcheck
