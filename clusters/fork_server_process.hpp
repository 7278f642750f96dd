// The fork server's side (`lockcheck worker --fork-server`): a worker process
// that, instead of serving lock requests, forks ready workers on request.
//
// Each request (clusters/fork_server_protocol.hpp) is served by a double fork:
// the server forks a short-lived middle process, which forks the worker and
// exits at once. The worker's parent gone, the kernel gives it to the nearest
// child subreaper above it: the controller (RunContainment makes it one), so
// the controller can waitpid, signal and reap workers as if it had spawned
// them. Only then does the worker set PR_SET_PDEATHSIG=SIGKILL (a death signal
// set earlier would fire when the middle process exits), and it checks that its
// parent is the controller (else it exits: the controller is gone). It takes
// its own process group, puts the request's fds at 0-2 and closes every other
// fd, as an exec'd worker is set up (clusters/process_spawn.hpp).
//
// The server must fork from a single thread and must not have started any
// client library (their threads and connections would be copied half-made):
// it checks that it has one thread before serving, and the caller calls it
// before anything but parsing its command line.
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
