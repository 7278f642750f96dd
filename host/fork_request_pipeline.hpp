// Fork requests in flight to a fork server (host/fork_server.hpp), each
// reply handed to the request it answers.
//
// The server serves its requests one after another, in the order they arrive
// on its SOCK_SEQPACKET socket, and answers each one before reading the next
// (host/fork_server_process.hpp), so its replies come in the order the
// requests were sent. Several threads may therefore each have a request in
// flight: requests are sent one at a time, each queued as it is sent, and
// whichever caller is waiting reads the next reply for the oldest request
// still unanswered. The server forks the next worker while the controller
// sets up the last, instead of one round trip after another.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>

#include "host/fork_server_protocol.hpp"

namespace lockcheck {

class ForkRequestPipeline {
public:
    /// `socket`: the controller's end of the server's socket (not owned: it
    /// must outlive this object). `reply_timeout`: how long a caller waits for
    /// the server's next reply while requests are in flight.
    ForkRequestPipeline(int socket, std::chrono::milliseconds reply_timeout);
    ForkRequestPipeline(const ForkRequestPipeline&) = delete;
    ForkRequestPipeline& operator=(const ForkRequestPipeline&) = delete;

    /// Sends a fork request carrying the request's fds (they stay the caller's) and
    /// waits for its own reply, while other threads' requests are in flight.
    /// Returns the PID the server answered. Throws ForkRefused with the
    /// server's error for this request alone (the others go on), and
    /// ForkProtocolError when the exchange is lost (the server exited, did not
    /// answer in time, or sent garbage): then this request, every other one in
    /// flight and every later one get that same error, since no later reply
    /// could be matched to its request any more. Thread-safe.
    pid_t fork(const ForkRequest& request);

private:
    struct Request;  ///< one request in flight and, once read, its answer

    /// Reads one reply (the lock released meanwhile) and hands it to the oldest
    /// request in flight, or loses them all.
    void read_next_reply(std::unique_lock<std::mutex>& lock);
    /// Every request in flight fails with `reason`, and so does every later one. Locked.
    void lose_all(const std::string& reason);

    const int socket_;
    const std::chrono::milliseconds reply_timeout_;
    std::mutex send_mutex_;  ///< one request sent at a time, in the order of in_flight_
    std::mutex mutex_;       ///< guards the members below
    std::condition_variable answered_;
    std::deque<std::shared_ptr<Request>> in_flight_;  ///< sent (or being sent), unanswered, oldest first
    bool reading_ = false;                            ///< a caller is reading the next reply
    std::string lost_;                                ///< why no request can be sent any more
};

}  // namespace lockcheck
