// The fork server's wire format (host/fork_server.hpp): the controller and
// the fork server talk over a UNIX SOCK_SEQPACKET socketpair, one datagram
// per message, so a message never runs into the next one.
//
//   request: the bytes "fork", carrying 3 fds (SCM_RIGHTS): the new worker's
//            stdin, stdout and stderr, and a 4th when the worker has a cgroup
//            of its own: that cgroup's directory (an O_PATH fd will do)
//   reply:   "pid N" (the worker, a child of the controller, in its cgroup
//            or joining it before anything else) or "error TEXT" (nothing
//            was started)
//
// The server answers each request before it reads the next, so replies come in
// the order the requests were sent: the controller may have several in flight
// and match each reply to the oldest unanswered request
// (host/fork_request_pipeline.hpp).
#pragma once

#include <sys/types.h>

#include <array>
#include <chrono>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace lockcheck {

class ForkProtocolError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The server's "error TEXT" reply: it answered, and started nothing.
class ForkRefused : public ForkProtocolError {
public:
    using ForkProtocolError::ForkProtocolError;
};

/// A worker's stdin, stdout and stderr, in that order.
using StdioFds = std::array<int, 3>;

/// What one request carries.
struct ForkRequest {
    StdioFds stdio{-1, -1, -1};
    int cgroup_dir = -1;  ///< the worker's cgroup directory; -1: it stays in the server's
};

/// Sends a fork request carrying the request's fds (they stay the caller's);
/// throws ForkProtocolError when the socket is closed or fails.
void send_fork_request(int socket, const ForkRequest& request);
/// Sends one message of `bytes` carrying `fds` (SCM_RIGHTS), as a request is
/// sent: send_fork_request is this with "fork"; tests send other bytes.
/// Throws ForkProtocolError when the socket is closed or fails.
void send_with_fds(int socket, std::string_view bytes, std::span<const int> fds);

/// Waits for one request: nullopt at EOF (the controller closed its end),
/// else the fds it carried, close-on-exec, now the caller's. A malformed
/// request (other bytes, fewer than 3 or more than 4 fds, truncated) throws
/// ForkProtocolError saying what arrived; the fds it carried are closed.
std::optional<ForkRequest> receive_fork_request(int socket);

/// Sends the reply "pid N" or "error TEXT"; false when the socket is closed
/// (no SIGPIPE).
bool send_fork_pid(int socket, pid_t pid);
bool send_fork_error(int socket, const std::string& message);

/// Waits up to `timeout` for the reply and returns its PID. Throws
/// ForkRefused with the server's "error" text; ForkProtocolError on EOF
/// ("the fork server exited"), on timeout, and on anything that is not a
/// reply (quoting what arrived).
pid_t receive_fork_reply(int socket, std::chrono::milliseconds timeout);

}  // namespace lockcheck
