// Starting a child process: lockcheck's own spawn path (ChildProcess uses it).
//
// The child is made with clone(CLONE_VM | CLONE_VFORK), as posix_spawn does:
// it shares the controller's memory until it calls execve, so starting it
// costs no copy of the controller's page tables, and the calling thread waits
// only until the child has exec'd (or failed). Between clone and execve the
// child does only async-signal-safe system calls, in this order: every signal
// handler back to the default (SIGPIPE included; ignored signals stay
// ignored), PR_SET_PDEATHSIG=SIGKILL (it dies when the *calling thread*
// exits), its own process group, its cgroup (when given), fds 0-2 from the
// plan, every other fd closed (close_range), an empty signal mask, execve.
//
// Safe to call from several threads at once: no fd of the plan needs to be
// inheritable (the child dup2s them into 0-2), and the child closes every
// other fd before execve, so one child never keeps another's pipe end open
// (which would hide the EOF that ends a worker). Callers create their fds
// with O_CLOEXEC all the same.
#pragma once

#include <sys/types.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace lockcheck {

class SpawnError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct SpawnPlan {
    std::string executable;                ///< absolute or relative path (resolve_executable)
    std::vector<std::string> argv;         ///< argv[0] included
    std::vector<std::string> environment;  ///< the child's whole environment, NAME=value
    int stdin_fd = -1;                     ///< becomes the child's fd 0
    int stdout_fd = -1;                    ///< becomes the child's fd 1
    int stderr_fd = -1;                    ///< becomes the child's fd 2
    /// The child writes its PID here (a cgroup's cgroup.procs) before execve;
    /// empty: it stays in the controller's cgroup.
    std::string cgroup_procs_file;
};

/// Starts the child described above and returns its PID once it has called
/// execve. Throws SpawnError naming the step that failed ("cannot join its
/// cgroup: Permission denied", "execve: No such file or directory"); the
/// failed child is reaped then.
pid_t spawn_child(const SpawnPlan& plan);

/// Places fds stdio[0..2] at 0, 1 and 2 (dup2 clears their close-on-exec),
/// whatever their numbers; false (errno set) when a dup fails.
/// Async-signal-safe: for a child between fork and exec, or a forked worker.
bool place_stdio(const int (&stdio)[3]) noexcept;

/// Closes every fd above 2 (close_range, else one by one below `max_fd`).
/// Async-signal-safe.
void close_fds_above_stdio(int max_fd) noexcept;

/// `name` when it holds a '/', else the first executable file of that name in
/// PATH; throws SpawnError("cannot start 'NAME': not found in PATH").
std::string resolve_executable(const std::string& name);

/// The controller's environment with `extra` ("NAME=value") set on top;
/// throws SpawnError on an entry that is not NAME=value.
std::vector<std::string> child_environment(const std::vector<std::string>& extra);

}  // namespace lockcheck
