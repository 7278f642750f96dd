#include "host/log_pump.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <string_view>

namespace lockcheck {

LogPump::LogPump(int read_fd, std::unique_ptr<BoundedLog> log)
    : read_fd_(read_fd), log_(std::move(log)), thread_([this](const std::stop_token& stop) { pump(stop); }) {}

LogPump::~LogPump() {
    thread_.request_stop();
    thread_.join();
    ::close(read_fd_);
}

void LogPump::pump(const std::stop_token& stop) {
    char chunk[64 * 1024];
    int reads_after_stop = 16;  // a pipe's worth and more; a writer that goes on is not waited for
    for (;;) {
        pollfd p{read_fd_, POLLIN, 0};
        const bool stopping = stop.stop_requested();
        if (stopping && reads_after_stop-- == 0) return;
        const int ready = ::poll(&p, 1, stopping ? 0 : 100);  // once stopping: only what is there already
        if (ready < 0 && errno == EINTR) continue;
        if (ready < 0 || (ready == 0 && stopping)) return;
        if (ready == 0) continue;
        const ssize_t n = ::read(read_fd_, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;  // every writer closed it (or it broke): nothing more will come
        log_->append(std::string_view(chunk, static_cast<std::size_t>(n)));
    }
}

}  // namespace lockcheck
