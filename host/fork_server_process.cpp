#include "host/fork_server_process.hpp"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/prctl.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <string>

#include "host/fork_server_protocol.hpp"
#include "host/process_cgroup.hpp"
#include "host/process_spawn.hpp"
#include "host/sibling_fork.hpp"

namespace lockcheck {
namespace {

/// How long a double-forked worker waits for the controller to adopt it (its
/// middle process exits right after forking it: microseconds, more under load).
constexpr int kAdoptionPolls = 200000;  ///< x 50 us = 10 s at most
constexpr long kAdoptionPollNanoseconds = 50'000;

/// The number of threads of this process, from /proc/self/status (0 when unreadable).
int thread_count() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("Threads:", 0) == 0) return std::atoi(line.c_str() + 8);
    return 0;
}

int max_fd() {
    const long open_max = ::sysconf(_SC_OPEN_MAX);
    return open_max > 0 && open_max < INT_MAX ? static_cast<int>(open_max) : 65536;
}

/// What the server finds out once, before it serves, for every fork.
struct ServerState {
    pid_t controller = -1;      ///< the server's parent: every worker's parent
    int fd_limit = 0;           ///< for closing fds one by one where close_range is missing
    bool sibling_forks = true;  ///< until fork_sibling turns out to be unsupported here
};

/// True when `dir` is a directory of a cgroup v2 hierarchy, which a worker can be forked into.
bool is_cgroup2(int dir) {
    struct statfs filesystem {};
    return ::fstatfs(dir, &filesystem) == 0 && filesystem.f_type == CGROUP2_SUPER_MAGIC;
}

[[noreturn]] void worker_fails(const char* what) {
    std::fprintf(stderr, "fork server: a new worker %s: %s\n", what, std::strerror(errno));
    ::_exit(127);
}

/// In the new worker, before it reads anything: set it up as spawn_child sets
/// up an exec'd worker. `in_cgroup`: it was forked into the request's cgroup;
/// `middle`: the process it waits to be adopted from (double fork), or -1. On
/// failure it says why on its stderr (the worker's log) and exits 127: the
/// controller sees its EOF.
void become_worker(const ForkRequest& request, bool in_cgroup, pid_t middle, const ServerState& server) {
    if (!place_stdio({request.stdio[0], request.stdio[1], request.stdio[2]})) worker_fails("cannot set up its stdio");
    if (request.cgroup_dir >= 0 && !in_cgroup && !join_cgroup_at(request.cgroup_dir))
        worker_fails("cannot join its cgroup");
    close_fds_above_stdio(server.fd_limit);
    const timespec pause{0, kAdoptionPollNanoseconds};
    for (int poll = 0; middle > 0 && poll < kAdoptionPolls && ::getppid() == middle; ++poll)
        ::nanosleep(&pause, nullptr);
    // The death signal is set once the parent is the controller (a middle's exit would fire it),
    // then the parent checked again: a controller that died before the prctl left it to another.
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != server.controller || ::setpgid(0, 0) != 0) {
        std::fprintf(stderr,
                     "fork server: a new worker is not the controller's child (pid %d; its parent is %d): is "
                     "the controller a child subreaper, and alive?\n",
                     static_cast<int>(server.controller), static_cast<int>(::getppid()));
        ::_exit(127);
    }
}

/// Forks one worker for `request` as the controller's child straight away
/// (fork_sibling), in the request's cgroup when it is a cgroup v2 one. In the
/// server it returns the worker's PID, or -1 with errno set; in the worker 0.
pid_t fork_sibling_worker(const ForkRequest& request, const ServerState& server) {
    const bool into_cgroup = request.cgroup_dir >= 0 && is_cgroup2(request.cgroup_dir);
    const pid_t worker = fork_sibling(into_cgroup ? request.cgroup_dir : -1);
    if (worker == 0) become_worker(request, into_cgroup, -1, server);
    return worker;
}

/// Forks one worker for `request` by a double fork, where fork_sibling cannot
/// be used: the server forks a middle process, which forks the worker and
/// exits, and the controller adopts the worker. In the server it returns the
/// worker's PID or throws ForkProtocolError; in the worker it returns 0.
pid_t fork_adopted_worker(const ForkRequest& request, const ServerState& server) {
    int report[2];
    if (::pipe2(report, O_CLOEXEC) != 0) throw ForkProtocolError(std::string("pipe2: ") + std::strerror(errno));
    const pid_t middle = ::fork();
    if (middle == 0) {
        ::close(report[0]);
        const pid_t self = ::getpid();
        const pid_t worker = ::fork();
        if (worker == 0) {
            become_worker(request, false, self, server);
            return 0;
        }
        const int outcome[2] = {worker, worker < 0 ? errno : 0};
        ssize_t written = 0;
        do written = ::write(report[1], outcome, sizeof outcome);
        while (written < 0 && errno == EINTR);
        ::_exit(0);  // the worker's parent is gone: the controller adopts it
    }
    const int fork_errno = errno;
    ::close(report[1]);
    int outcome[2] = {-1, 0};
    ssize_t got = 0;
    if (middle > 0) {
        do got = ::read(report[0], outcome, sizeof outcome);
        while (got < 0 && errno == EINTR);
        int status = 0;
        while (::waitpid(middle, &status, 0) < 0 && errno == EINTR) {}
    }
    ::close(report[0]);
    if (middle < 0) throw ForkProtocolError(std::string("fork: ") + std::strerror(fork_errno));
    if (got != static_cast<ssize_t>(sizeof outcome)) throw ForkProtocolError("the middle process died before forking");
    if (outcome[0] < 0) throw ForkProtocolError(std::string("fork: ") + std::strerror(outcome[1]));
    return outcome[0];
}

/// Forks one worker for `request`: as the controller's sibling while
/// server.sibling_forks holds, else (and from then on, once fork_sibling turns
/// out to be unsupported here) by a double fork. In the server it returns the
/// worker's PID or throws ForkProtocolError; in the worker it returns 0.
pid_t fork_worker(const ForkRequest& request, ServerState& server) {
    if (server.sibling_forks) {
        const pid_t worker = fork_sibling_worker(request, server);
        if (worker >= 0) return worker;
        const int error = errno;
        if (!sibling_fork_unsupported(error)) throw ForkProtocolError(std::string("clone3: ") + std::strerror(error));
        std::fprintf(stderr, "fork server: clone3 cannot fork a worker here (%s): double-forking them instead\n",
                     std::strerror(error));
        server.sibling_forks = false;
    }
    return fork_adopted_worker(request, server);
}

}  // namespace

std::optional<int> serve_forks(int socket) {
    ServerState server{::getppid(), max_fd()};
    if (const int threads = thread_count(); threads != 1) {
        std::fprintf(stderr, "fork server: it has %d threads; it must have one to fork workers safely\n", threads);
        return 2;
    }
    while (true) {
        std::optional<ForkRequest> request;
        try {
            request = receive_fork_request(socket);
        } catch (const ForkProtocolError& e) {
            std::fprintf(stderr, "fork server: %s\n", e.what());
            if (!send_fork_error(socket, e.what())) return 1;
            continue;
        }
        if (!request) return 0;  // the controller closed its end: the run is over
        pid_t worker = -1;
        std::string failure;
        try {
            worker = fork_worker(*request, server);
        } catch (const ForkProtocolError& e) {
            failure = e.what();
        }
        if (worker == 0) return std::nullopt;  // the new worker: its fds are in place
        for (const int fd : request->stdio) ::close(fd);
        if (request->cgroup_dir >= 0) ::close(request->cgroup_dir);
        const bool replied = failure.empty() ? send_fork_pid(socket, worker) : send_fork_error(socket, failure);
        if (!replied) return 1;
    }
}

}  // namespace lockcheck
