// Small helpers of the fork server's tests (fork_server_test.cpp,
// fork_server_protocol_test.cpp): a pipe closed at the end of a test, whether
// an fd is open, and line I/O on a worker's stdio with a bound wait.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include <gtest/gtest.h>

namespace lockcheck::fork_server_test_support {

using namespace std::chrono_literals;

/// A pipe, closed at the end of the test.
struct Pipe {
    int ends[2] = {-1, -1};
    Pipe() { EXPECT_EQ(::pipe2(ends, O_CLOEXEC), 0); }
    ~Pipe() {
        for (const int fd : ends)
            if (fd >= 0) ::close(fd);
    }
};

inline bool is_open(int fd) { return ::fcntl(fd, F_GETFD) >= 0; }

/// One line from `fd` (without its newline), waiting up to 10 s; "" at EOF or timeout.
inline std::string read_line(int fd) {
    std::string line;
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (std::chrono::steady_clock::now() < deadline) {
        pollfd ready{fd, POLLIN, 0};
        if (::poll(&ready, 1, 100) <= 0) continue;
        char c = 0;
        if (::read(fd, &c, 1) != 1) return line;
        if (c == '\n') return line;
        line += c;
    }
    return line;
}

inline void write_text(int fd, const std::string& text) {
    ASSERT_EQ(::write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
}

}  // namespace lockcheck::fork_server_test_support
