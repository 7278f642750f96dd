#include "host/line_channel.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <optional>

#include "core/fd_write.hpp"

namespace lockcheck {

bool LineChannel::write_line(std::string line) {
    line.push_back('\n');
    return write_all(write_fd_, line);  // false on EPIPE: the worker is gone (SIGPIPE is ignored)
}

LineChannel::ReadStatus LineChannel::read_line(std::string& line, std::chrono::steady_clock::time_point deadline,
                                               const ReplyCutoff& cutoff) {
    std::optional<std::chrono::steady_clock::time_point> give_up;  // set once interrupted or ended
    bool interrupted = false, ended = false;
    for (;;) {
        if (auto newline = buffer_.find('\n'); newline != std::string::npos) {
            line = buffer_.substr(0, newline);
            buffer_.erase(0, newline + 1);
            return ReadStatus::Line;
        }
        if (buffer_.size() > kMaxLine) return ReadStatus::TooLong;
        const auto now = std::chrono::steady_clock::now();
        const auto cut_at = [&](bool& seen, const std::stop_token& token, std::chrono::milliseconds grace) {
            if (seen || !token.stop_requested()) return;
            seen = true;
            give_up = give_up ? std::min(*give_up, now + grace) : now + grace;
        };
        cut_at(interrupted, cutoff.interrupt, kInterruptGrace);
        cut_at(ended, cutoff.ending, cutoff.ending_grace);
        const bool grace_ends_first = give_up && *give_up < deadline;
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>((grace_ends_first ? *give_up : deadline) - now);
        if (left.count() <= 0) return grace_ends_first ? ReadStatus::Interrupted : ReadStatus::Timeout;
        pollfd p[2] = {{read_fd_, POLLIN, 0}, {exit_fd_, POLLIN, 0}};
        const int ready = ::poll(p, exit_fd_ >= 0 ? 2 : 1, static_cast<int>(std::min<long long>(left.count(), 100)));
        if (ready < 0 && errno != EINTR) return ReadStatus::Closed;
        if (ready <= 0) continue;
        // What the worker wrote before it exited is in the pipe already: read that first.
        if (p[0].revents == 0) return ReadStatus::Closed;  // its process exited, a descendant holds the pipe
        char chunk[4096];
        const ssize_t n = ::read(read_fd_, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return ReadStatus::Closed;
        buffer_.append(chunk, static_cast<std::size_t>(n));
    }
}

}  // namespace lockcheck
