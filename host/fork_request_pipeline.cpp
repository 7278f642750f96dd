#include "host/fork_request_pipeline.hpp"

#include <optional>

namespace lockcheck {

struct ForkRequestPipeline::Request {
    bool answered = false;
    std::optional<pid_t> pid;  ///< the worker, when the server started one
    std::string lost;          ///< why there is no answer, when the exchange is lost
    std::string refused;       ///< else the server's error: it started nothing
};

ForkRequestPipeline::ForkRequestPipeline(int socket, std::chrono::milliseconds reply_timeout)
    : socket_(socket), reply_timeout_(reply_timeout) {}

pid_t ForkRequestPipeline::fork(const ForkRequest& request) {
    const auto mine = std::make_shared<Request>();
    {
        const std::lock_guard sending(send_mutex_);
        {
            const std::lock_guard lock(mutex_);
            if (!lost_.empty()) throw ForkProtocolError(lost_);
            in_flight_.push_back(mine);  // queued before it is sent: its reply cannot come before it is queued
        }
        try {
            send_fork_request(socket_, request);
        } catch (const ForkProtocolError& e) {
            const std::lock_guard lock(mutex_);
            lose_all(e.what());
        }
    }
    std::unique_lock lock(mutex_);
    while (!mine->answered) {
        if (reading_)
            answered_.wait(lock);
        else
            read_next_reply(lock);
    }
    if (mine->pid) return *mine->pid;
    if (!mine->lost.empty()) throw ForkProtocolError(mine->lost);
    throw ForkRefused(mine->refused);
}

void ForkRequestPipeline::read_next_reply(std::unique_lock<std::mutex>& lock) {
    reading_ = true;
    lock.unlock();
    std::optional<pid_t> pid;
    std::string refused, lost;
    try {
        pid = receive_fork_reply(socket_, reply_timeout_);
    } catch (const ForkRefused& e) {
        refused = e.what();
    } catch (const ForkProtocolError& e) {
        lost = e.what();
    }
    lock.lock();
    reading_ = false;
    if (!lost.empty()) {
        lose_all(lost);
    } else {  // the reader's own request is unanswered, so in_flight_ is not empty
        const auto oldest = in_flight_.front();
        in_flight_.pop_front();
        oldest->answered = true;
        oldest->pid = pid;
        oldest->refused = refused;
    }
    answered_.notify_all();
}

void ForkRequestPipeline::lose_all(const std::string& reason) {
    if (lost_.empty()) lost_ = reason;
    for (const auto& request : in_flight_) {
        request->answered = true;
        request->lost = lost_;
    }
    in_flight_.clear();
    answered_.notify_all();
}

}  // namespace lockcheck
