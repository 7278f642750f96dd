#include "clusters/fork_server_process.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
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

#include "clusters/fork_server_protocol.hpp"
#include "clusters/process_spawn.hpp"

namespace lockcheck {
namespace {

/// How long a new worker waits for the controller to adopt it (its middle
/// process exits right after forking it: microseconds, more under load).
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

/// In the new worker: wait for the controller to adopt it, then set it up as
/// spawn_child sets up an exec'd worker. On failure it says why on its stderr
/// (the worker's log) and exits 127: the controller sees its EOF.
void become_worker(const StdioFds& stdio, pid_t middle, pid_t controller) {
    if (!place_stdio({stdio[0], stdio[1], stdio[2]})) {
        std::fprintf(stderr, "fork server: a new worker cannot set up its stdio: %s\n", std::strerror(errno));
        ::_exit(127);
    }
    close_fds_above_stdio(max_fd());
    const timespec pause{0, kAdoptionPollNanoseconds};
    for (int poll = 0; poll < kAdoptionPolls && ::getppid() == middle; ++poll) ::nanosleep(&pause, nullptr);
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != controller || ::setpgid(0, 0) != 0) {
        std::fprintf(stderr,
                     "fork server: a new worker was not adopted by the controller (pid %d; its parent is %d): is "
                     "the controller a child subreaper, and alive?\n",
                     static_cast<int>(controller), static_cast<int>(::getppid()));
        ::_exit(127);
    }
}

/// Forks one worker for `stdio` (double fork, see the header). In the server
/// it returns the worker's PID or throws ForkProtocolError; in the worker it
/// returns 0.
pid_t fork_worker(const StdioFds& stdio, pid_t controller) {
    int report[2];
    if (::pipe2(report, O_CLOEXEC) != 0) throw ForkProtocolError(std::string("pipe2: ") + std::strerror(errno));
    const pid_t middle = ::fork();
    if (middle == 0) {
        ::close(report[0]);
        const pid_t self = ::getpid();
        const pid_t worker = ::fork();
        if (worker == 0) {
            become_worker(stdio, self, controller);
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

}  // namespace

std::optional<int> serve_forks(int socket) {
    const pid_t controller = ::getppid();
    if (const int threads = thread_count(); threads != 1) {
        std::fprintf(stderr, "fork server: it has %d threads; it must have one to fork workers safely\n", threads);
        return 2;
    }
    while (true) {
        std::optional<StdioFds> stdio;
        try {
            stdio = receive_fork_request(socket);
        } catch (const ForkProtocolError& e) {
            std::fprintf(stderr, "fork server: %s\n", e.what());
            if (!send_fork_error(socket, e.what())) return 1;
            continue;
        }
        if (!stdio) return 0;  // the controller closed its end: the run is over
        pid_t worker = -1;
        std::string failure;
        try {
            worker = fork_worker(*stdio, controller);
        } catch (const ForkProtocolError& e) {
            failure = e.what();
        }
        if (worker == 0) return std::nullopt;  // the new worker: its fds are in place
        for (const int fd : *stdio) ::close(fd);
        const bool replied = failure.empty() ? send_fork_pid(socket, worker) : send_fork_error(socket, failure);
        if (!replied) return 1;
    }
}

}  // namespace lockcheck
