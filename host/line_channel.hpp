// Line-oriented I/O with a worker process over its stdin/stdout pipes, with
// deadlines on reads. Not thread-safe: one driver thread owns a channel.
#pragma once

#include <chrono>
#include <stop_token>
#include <string>
#include <utility>

namespace lockcheck {

/// When a wait for a line ends before its deadline: once `interrupt` (Ctrl-C)
/// is requested, after LineChannel::kInterruptGrace more; once `ending` (the
/// run's own end: its time limit, max_ops, ...) is requested, after
/// `ending_grace` more. A stop_token alone is an interrupt.
struct ReplyCutoff {
    ReplyCutoff(std::stop_token on_interrupt = {}, std::stop_token on_ending = {},  // NOLINT: implicit, from a token
                std::chrono::milliseconds grace_after_ending = {})
        : interrupt(std::move(on_interrupt)), ending(std::move(on_ending)), ending_grace(grace_after_ending) {}
    std::stop_token interrupt;
    std::stop_token ending;
    std::chrono::milliseconds ending_grace;
};

class LineChannel {
public:
    /// Does not own the descriptors. `exit_fd`, when not -1, becomes readable
    /// once the worker's own process has exited (ChildProcess::exit_fd): a
    /// read then ends Closed as soon as the lines it had written are read,
    /// even while a process it started still holds the other end of `read_fd`.
    LineChannel(int read_fd, int write_fd, int exit_fd = -1)
        : read_fd_(read_fd), write_fd_(write_fd), exit_fd_(exit_fd) {}

    /// Writes `line` and a newline with one write(2) (taking the line by
    /// value to append the newline without a copy); false when the other end is gone.
    bool write_line(std::string line);

    enum class ReadStatus { Line, Timeout, Closed, TooLong, Interrupted };
    /// Reads the next line (without its newline) before `deadline`. Once a
    /// stop is requested on `cutoff`'s interrupt, it waits at most
    /// kInterruptGrace more (a reply on its way still arrives), once one is
    /// requested on its ending, at most its ending_grace more; then it gives
    /// up: Interrupted. Closed: the other end is closed by every process, or
    /// the worker's process has exited (see the constructor).
    ReadStatus read_line(std::string& line, std::chrono::steady_clock::time_point deadline,
                         const ReplyCutoff& cutoff = {});

    static constexpr std::chrono::milliseconds kInterruptGrace{1000};

    static constexpr std::size_t kMaxLine = 1 << 20;

private:
    int read_fd_;
    int write_fd_;
    int exit_fd_;
    std::string buffer_;
};

}  // namespace lockcheck
