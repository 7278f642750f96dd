// The fork server's side (`lockcheck worker --fork-server`): a worker process
// that, instead of serving lock requests, forks ready workers on request.
//
// Each request (host/fork_server_protocol.hpp) is served by one fork: the
// server forks the worker as its own sibling (host/sibling_fork.hpp), so
// the worker's parent is the controller from the start, and creates it in the
// request's cgroup when that is a cgroup v2 one. Where that kind of fork is
// not possible (no clone3, e.g. under a seccomp profile that filters it out;
// the server says so once in its log), it falls back to a double fork: the
// server forks a short-lived middle process, which forks the worker and exits
// at once; the worker's parent gone, the kernel gives it to the nearest child
// subreaper above it: the controller (RunContainment makes it one).
// Either way the controller can waitpid, signal and reap workers as if it had
// spawned them. The worker, before it reads anything, joins its cgroup (when
// it was not created in it), puts the request's fds at 0-2 and closes every
// other fd, as an exec'd worker is set up (host/process_spawn.hpp); once
// its parent is the controller it sets PR_SET_PDEATHSIG=SIGKILL (a death
// signal set earlier would fire when a middle process exits) and checks that
// its parent is still the controller (else it exits: the controller is gone),
// and it takes its own process group.
//
// The server must fork from a single thread and must not have started any
// client library (their threads and connections would be copied half-made,
// and a sibling fork runs no pthread_atfork handler): it checks that it has
// one thread before serving, and the caller calls it before anything but
// parsing its command line.
#pragma once

#include <optional>

namespace lockcheck {

/// Serves fork requests on `socket` from the controller (the server's parent)
/// until EOF. Returns the server's exit code (0 at EOF; 2 when it is not
/// single-threaded), or nullopt in a forked worker: its stdio is in place and
/// it goes on to run the worker's main loop, the same as an exec'd worker.
/// A malformed request gets an "error" reply (and a line on stderr), and the
/// server goes on serving.
std::optional<int> serve_forks(int socket);

}  // namespace lockcheck
