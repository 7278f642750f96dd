#include "workers/worker_process.hpp"

#include "core/utf8_text.hpp"

namespace lockcheck {
namespace {

/// The most of a worker's reason for refusing init (or of what was wrong with its hello) an error quotes.
constexpr std::size_t kMaxReasonBytes = 400;

}  // namespace

WorkerProcess::WorkerProcess(const ChildSpec& spec, const WorkerInit& init)
    : process_(init.process),
      who_("worker " + std::to_string(init.process) + " (log " + spec.output_log.string() + ")") {
    try {
        child_ = std::make_unique<ChildProcess>(spec);
    } catch (const SpawnError& e) {
        throw WorkerError(who_ + ": " + e.what());
    }
    channel_ = std::make_unique<LineChannel>(child_->stdout_fd(), child_->stdin_fd(), child_->exit_fd());
    if (!channel_->write_line(encode_init(init))) throw WorkerError(who_ + " exited before its init");
}

void WorkerProcess::await_hello(std::chrono::steady_clock::time_point deadline) {
    std::string line;
    const auto status = channel_->read_line(line, deadline);
    if (status == LineChannel::ReadStatus::Timeout) throw WorkerError(who_ + " did not answer init in time");
    if (status == LineChannel::ReadStatus::TooLong)
        throw WorkerError(who_ + " answered init with a line longer than " + std::to_string(LineChannel::kMaxLine) +
                          " bytes (the most a protocol line may be)");
    if (status != LineChannel::ReadStatus::Line) throw WorkerError(who_ + " exited before answering init");
    try {
        hello_ = decode_hello(line);
    } catch (const ProtocolError& e) {  // the worker's own words (a refusal's reason): one line, printable
        throw WorkerError(who_ + ": " + printable_excerpt(e.what(), kMaxReasonBytes));
    }
}

WorkerProcess::CallResult WorkerProcess::call(const WorkerRequest& request, std::chrono::milliseconds timeout,
                                              const ReplyCutoff& cutoff) {
    CallResult result;
    if (!channel_->write_line(encode(request))) {
        result.failure = "worker exited";
        return result;
    }
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::string line;
    switch (channel_->read_line(line, deadline, cutoff)) {
        case LineChannel::ReadStatus::Timeout: result.failure = "worker timed out"; return result;
        case LineChannel::ReadStatus::Closed: result.failure = "worker exited"; return result;
        case LineChannel::ReadStatus::TooLong: result.failure = "worker sent an over-long line"; return result;
        case LineChannel::ReadStatus::Interrupted:
            result.failure = cutoff.interrupt.stop_requested()
                                 ? "interrupted: no reply"
                                 : "run ended: no reply within " + std::to_string(cutoff.ending_grace.count()) +
                                       " ms of its end";
            result.interrupted = true;
            return result;
        case LineChannel::ReadStatus::Line: break;
    }
    try {
        auto reply = decode_reply(line);
        if (reply.id != request.id) {
            result.failure =
                "worker answered id " + std::to_string(reply.id) + " to request " + std::to_string(request.id);
            return result;
        }
        result.reply = std::move(reply);
    } catch (const ProtocolError& e) {
        result.failure = std::string("worker sent garbage: ") + e.what();
    }
    return result;
}

void WorkerProcess::stop(std::chrono::milliseconds grace) {
    child_->close_stdin();
    if (!child_->wait_for_exit(grace)) child_->stop(grace);
}

}  // namespace lockcheck
