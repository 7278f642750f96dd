// One child process the harness started: a server node or a worker.
//
// Spawned by spawn_child (host/process_spawn.hpp), so several threads can
// start children at once, or forked by a fork server (ChildSpec::start,
// host/fork_server.hpp; built-in workers), set up the same way. Every child gets its own process group (so a
// terminal's Ctrl-C reaches only the controller, which then cleans up) and
// PR_SET_PDEATHSIG=SIGKILL (so it dies with the controller, even on kill -9).
// PDEATHSIG fires when the *thread* that spawned the child exits: spawn from
// threads that live as long as the child should.
// While a run is contained (host/run_containment.hpp) the child starts in a
// cgroup of its own, so kill() reaches everything it started, even a
// descendant that left its process group. Without one, kill() reaches the
// child's process group.
// The controller keeps the handle and signals the child by it, never by a PID
// read back from a file. All methods are thread-safe.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/process_spawn.hpp"

namespace lockcheck {

struct ChildSpec {
    std::vector<std::string> argv;     ///< argv[0]: absolute path, or a name looked up in PATH
    std::optional<std::string> netns;  ///< run inside this network namespace (via `ip netns exec`)
    std::filesystem::path
        output_log;           ///< stdout and stderr are appended here (stderr only with pipe_stdio); empty: /dev/null
    bool pipe_stdio = false;  ///< stdin/stdout become pipes to the controller
    /// "NAME=value" entries added to (or replacing in) the controller's
    /// environment for this child, e.g. LD_PRELOAD of the clock library.
    std::vector<std::string> env = {};
    /// stdin is one end of a UNIX SOCK_SEQPACKET socketpair, used both ways
    /// (stdin_fd(); stdout_fd() stays -1), stdout goes to the log: the fork
    /// server's control socket (host/fork_server.hpp). Not with pipe_stdio.
    bool socket_stdin = false;
    /// Starts the child from its plan and returns its PID, a child of this
    /// process; empty: spawn_child (execve). Built-in workers use a
    /// ForkServer's spawn (host/fork_server.hpp).
    std::function<pid_t(const SpawnPlan&)> start = {};
    /// What goes to output_log passes through the controller, which keeps its
    /// first and last kBoundedLogKeep bytes with a line saying how many were
    /// cut between them (host/bounded_log.hpp): for clients, which may
    /// flood stderr. Off: the child writes to the log itself, unbounded.
    bool bound_log = false;
};

/// What a bounded log (ChildSpec::bound_log) keeps of its start and of its end: 1 MiB each.
inline constexpr std::uint64_t kBoundedLogKeep = 1 << 20;

/// Everything in a child's log, or "" when it cannot be read.
std::string log_text(const std::filesystem::path& log);
/// The last line of a child's log that is not blank, or "(log is empty)".
std::string last_log_line(const std::filesystem::path& log);
/// The last line of `text` that is not blank, or "(log is empty)".
std::string last_nonblank_line(const std::string& text);

class ChildProcess {
public:
    /// Starts the child; throws SpawnError when it cannot be started. The
    /// child has no fd of the controller's but its stdin, stdout and stderr.
    explicit ChildProcess(const ChildSpec& spec);
    /// kill(), then removes the child's cgroup.
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    pid_t pid() const { return pid_; }
    /// False once the child has exited (it is reaped then).
    bool running();
    /// The exit code, or 128+signal, once the child has exited.
    std::optional<int> exit_status();
    /// Sends a signal while the child has not been reaped; no-op afterwards.
    void send_signal(int signal);
    /// Sends a signal to the child's process group (the child and every
    /// descendant still in it: a `sh -c` worker's client) while the child has
    /// not been reaped; no-op afterwards.
    void signal_group(int signal);
    void pause() { signal_group(SIGSTOP_VALUE); }
    void resume() { signal_group(SIGCONT_VALUE); }
    /// Waits until the child exits or the timeout passes; true if it exited.
    bool wait_for_exit(std::chrono::milliseconds timeout);
    /// SIGCONT + SIGTERM to the process group, then kill() after at most
    /// `grace` (at once when the child has exited: for what it left behind);
    /// always reaps.
    void stop(std::chrono::milliseconds grace);
    /// SIGKILL to the child, its process group and its cgroup (every
    /// descendant), and reap the child.
    void kill();

    /// Pipe ends of a child spawned with pipe_stdio (-1 otherwise). The
    /// controller writes requests to stdin_fd and reads replies from stdout_fd.
    int stdin_fd() const { return stdin_fd_; }
    int stdout_fd() const { return stdout_fd_; }
    /// A pidfd of the child (pidfd_open): readable once the child has exited,
    /// even when a process it started still holds its stdout; -1 when the
    /// kernel has none. Owned by this object; never reaps the child.
    int exit_fd() const { return exit_fd_; }
    /// Closes the controller's end of the child's stdin (the child sees EOF).
    void close_stdin();

private:
    static constexpr int SIGSTOP_VALUE = 19;
    static constexpr int SIGCONT_VALUE = 18;
    struct Impl;
    std::unique_ptr<Impl> impl_;
    std::mutex mutex_;
    pid_t pid_ = -1;
    int stdin_fd_ = -1;
    int stdout_fd_ = -1;
    int exit_fd_ = -1;
    std::optional<int> exit_status_;

    bool running_locked();
};

}  // namespace lockcheck
