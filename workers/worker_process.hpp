// One worker process seen from the controller: its process number, its child
// process, and request/reply calls over its pipes (recipes/protocol.hpp).
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>
#include <stop_token>
#include <string>

#include "host/child_process.hpp"
#include "host/line_channel.hpp"
#include "recipes/protocol.hpp"

namespace lockcheck {

class WorkerError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class WorkerProcess {
public:
    /// Spawns the worker and sends it `init`, without waiting for its answer
    /// (so many workers can start at once: await_hello collects it); throws
    /// WorkerError when it cannot be started or exits before its init.
    WorkerProcess(const ChildSpec& spec, const WorkerInit& init);

    /// Waits until `deadline` for the worker's hello (its answer to init);
    /// throws WorkerError with the reason (no hello in time, garbage,
    /// refused, exited) otherwise. Call once, before any call().
    void await_hello(std::chrono::steady_clock::time_point deadline);

    int process() const { return process_; }
    const WorkerHello& hello() const { return hello_; }

    struct CallResult {
        std::optional<WorkerReply> reply;
        std::string failure;       ///< why there is no reply: timeout, exited, garbage, wrong id, interrupted
        bool interrupted = false;  ///< no reply within LineChannel::kInterruptGrace of an interrupt
    };
    /// Sends a request and waits up to `timeout` for the reply with its id;
    /// after a stop is requested on `cutoff`'s interrupt, at most
    /// LineChannel::kInterruptGrace more, on its ending at most its
    /// ending_grace more (then `interrupted` is set, and the failure says which).
    CallResult call(const WorkerRequest& request, std::chrono::milliseconds timeout, const ReplyCutoff& cutoff = {});

    void pause() { child_->pause(); }
    void resume() { child_->resume(); }
    /// Closes stdin (the worker exits at EOF), then SIGTERM/SIGKILL after `grace`.
    void stop(std::chrono::milliseconds grace);
    void kill() { child_->kill(); }

private:
    int process_;
    std::string who_;  ///< "worker N (log PATH)", for errors
    WorkerHello hello_;
    std::unique_ptr<ChildProcess> child_;
    std::unique_ptr<LineChannel> channel_;
};

}  // namespace lockcheck
