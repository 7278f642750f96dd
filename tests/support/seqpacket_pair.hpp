// A UNIX SOCK_SEQPACKET socketpair for one unit test (the fork server's
// socket: host/fork_server_protocol.hpp), both ends closed when the test
// is done unless closed before with close_end.
#pragma once

#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

namespace lockcheck::testing {

struct SeqpacketPair {
    int ends[2] = {-1, -1};
    SeqpacketPair() { EXPECT_EQ(::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends), 0); }
    ~SeqpacketPair() {
        for (const int fd : ends)
            if (fd >= 0) ::close(fd);
    }
    SeqpacketPair(const SeqpacketPair&) = delete;
    SeqpacketPair& operator=(const SeqpacketPair&) = delete;
    void close_end(int i) {
        ::close(ends[i]);
        ends[i] = -1;
    }
};

}  // namespace lockcheck::testing
