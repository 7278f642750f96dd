// Line-oriented I/O with a worker process over its stdin/stdout pipes, with
// deadlines on reads. Not thread-safe: one driver thread owns a channel.
#pragma once

#include <chrono>
#include <stop_token>
#include <string>

namespace lockcheck {

class LineChannel {
public:
    /// Does not own the descriptors.
    LineChannel(int read_fd, int write_fd) : read_fd_(read_fd), write_fd_(write_fd) {}

    /// Writes `line` and a newline with one write(2) (taking the line by
    /// value to append the newline without a copy); false when the other end is gone.
    bool write_line(std::string line);

    enum class ReadStatus { Line, Timeout, Closed, TooLong, Interrupted };
    /// Reads the next line (without its newline) before `deadline`. Once a
    /// stop is requested on `interrupt`, it waits at most kInterruptGrace
    /// more (a reply on its way still arrives), then gives up: Interrupted.
    ReadStatus read_line(std::string& line, std::chrono::steady_clock::time_point deadline,
                         const std::stop_token& interrupt = {});

    static constexpr std::chrono::milliseconds kInterruptGrace{1000};

    static constexpr std::size_t kMaxLine = 1 << 20;

private:
    int read_fd_;
    int write_fd_;
    std::string buffer_;
};

}  // namespace lockcheck
