// A thread that copies what a child writes into a pipe to its BoundedLog
// (host/bounded_log.hpp), so a child that floods its output cannot grow
// its log without bound (ChildSpec::bound_log).
#pragma once

#include <memory>
#include <thread>

#include "host/bounded_log.hpp"

namespace lockcheck {

class LogPump {
public:
    /// Takes `read_fd` (the controller's end of the child's output pipe) and
    /// copies everything read from it into `log` until every writer has closed it.
    LogPump(int read_fd, std::unique_ptr<BoundedLog> log);
    /// Copies what can be read without waiting, then stops (a process that
    /// left the child's group may still hold the pipe) and closes `read_fd`.
    ~LogPump();
    LogPump(const LogPump&) = delete;
    LogPump& operator=(const LogPump&) = delete;

private:
    int read_fd_;
    std::unique_ptr<BoundedLog> log_;
    std::jthread thread_;

    void pump(const std::stop_token& stop);
};

}  // namespace lockcheck
