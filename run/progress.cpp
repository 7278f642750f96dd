#include "run/progress.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>

namespace lockcheck {

ProgressDisplay::ProgressDisplay(std::function<std::string()> status)
    : status_(std::move(status)), tty_(::isatty(STDERR_FILENO) != 0) {
    thread_ = std::thread([this] {
        const auto period = tty_ ? std::chrono::milliseconds(500) : std::chrono::milliseconds(5000);
        std::unique_lock lock(mutex_);
        while (!wake_.wait_for(lock, period, [this] { return stopping_; })) {
            const std::string line = status_();
            if (tty_)
                std::fprintf(stderr, "\r\033[K%s", line.c_str());
            else
                std::fprintf(stderr, "%s\n", line.c_str());
            std::fflush(stderr);
        }
    });
}

ProgressDisplay::~ProgressDisplay() { stop(); }

void ProgressDisplay::stop() {
    {
        std::lock_guard lock(mutex_);
        if (stopping_) return;
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
    if (tty_) {
        std::fprintf(stderr, "\r\033[K%s\n", status_().c_str());
        std::fflush(stderr);
    }
}

}  // namespace lockcheck
