#include "host/process_spawn.hpp"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "host/process_cgroup.hpp"

extern char** environ;

namespace lockcheck {
namespace {

/// The child's stack until execve: it only makes system calls.
constexpr std::size_t kChildStackBytes = 64 * 1024;

/// What the child reads (prepared before clone, nothing allocated after) and,
/// sharing the controller's memory, writes back when a step fails.
struct ChildWork {
    const char* executable = nullptr;
    char* const* argv = nullptr;
    char* const* envp = nullptr;
    int stdio[3] = {-1, -1, -1};
    const char* cgroup_procs = nullptr;  ///< nullptr: no cgroup
    int max_fd = 0;                      ///< for closing fds when close_range is missing
    const char* failed_step = nullptr;
    int failed_errno = 0;
};

[[noreturn]] void fail_in_child(ChildWork& work, const char* step) {
    work.failed_errno = errno;
    work.failed_step = step;
    ::_exit(127);
}

void default_signal_handlers() {
    for (int sig = 1; sig < NSIG; ++sig) {
        struct sigaction current {};
        if (::sigaction(sig, nullptr, &current) != 0) continue;  // a number the C library keeps for itself
        const bool handled = current.sa_handler != SIG_DFL && current.sa_handler != SIG_IGN;
        if (!handled && sig != SIGPIPE) continue;  // an ignored signal stays ignored, as across a fork
        struct sigaction fallback {};
        fallback.sa_handler = SIG_DFL;
        ::sigaction(sig, &fallback, nullptr);
    }
}

/// Runs in the child, on its own stack, in the controller's memory: system calls only.
int child_main(void* raw) {
    auto& work = *static_cast<ChildWork*>(raw);
    default_signal_handlers();
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) fail_in_child(work, "prctl(PR_SET_PDEATHSIG)");
    if (::setpgid(0, 0) != 0) fail_in_child(work, "setpgid");
    if (work.cgroup_procs != nullptr && !join_cgroup(work.cgroup_procs)) fail_in_child(work, "cannot join its cgroup");
    if (!place_stdio(work.stdio)) fail_in_child(work, "cannot set up its stdin/stdout/stderr");
    close_fds_above_stdio(work.max_fd);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::execve(work.executable, work.argv, work.envp);
    fail_in_child(work, "execve");
}

/// NULL-terminated pointers into `strings` (which must outlive them).
std::vector<char*> c_strings(const std::vector<std::string>& strings) {
    std::vector<char*> pointers;
    pointers.reserve(strings.size() + 1);
    for (const auto& s : strings) pointers.push_back(const_cast<char*>(s.c_str()));
    pointers.push_back(nullptr);
    return pointers;
}

bool is_executable_file(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

bool place_stdio(const int (&stdio)[3]) noexcept {
    int sources[3];
    for (int i = 0; i < 3; ++i) {
        // A source among 0-2 would be overwritten by an earlier dup2: move it up first.
        sources[i] = stdio[i] < 3 ? ::fcntl(stdio[i], F_DUPFD, 3) : stdio[i];
        if (sources[i] < 0) return false;
    }
    for (int i = 0; i < 3; ++i)
        if (::dup2(sources[i], i) < 0) return false;
    return true;
}

void close_fds_above_stdio(int max_fd) noexcept {
    if (::close_range(3, ~0U, 0) == 0) return;
    for (int fd = 3; fd < max_fd; ++fd) ::close(fd);
}

pid_t spawn_child(const SpawnPlan& plan) {
    if (plan.argv.empty()) throw SpawnError("no argv");
    const auto argv = c_strings(plan.argv);
    const auto envp = c_strings(plan.environment);
    ChildWork work;
    work.executable = plan.executable.c_str();
    work.argv = argv.data();
    work.envp = envp.data();
    work.stdio[0] = plan.stdin_fd;
    work.stdio[1] = plan.stdout_fd;
    work.stdio[2] = plan.stderr_fd;
    work.cgroup_procs = plan.cgroup_procs_file.empty() ? nullptr : plan.cgroup_procs_file.c_str();
    const long open_max = ::sysconf(_SC_OPEN_MAX);
    work.max_fd = open_max > 0 && open_max < INT_MAX ? static_cast<int>(open_max) : 65536;

    void* stack =
        ::mmap(nullptr, kChildStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) throw SpawnError(std::string("cannot map a stack for the child: ") + std::strerror(errno));
    // No signal handler of the controller may run in the child while it shares
    // the controller's memory: every signal stays blocked until the child has
    // reset the handlers.
    sigset_t all, previous;
    sigfillset(&all);
    ::pthread_sigmask(SIG_SETMASK, &all, &previous);
    const pid_t pid =
        ::clone(child_main, static_cast<char*>(stack) + kChildStackBytes, CLONE_VM | CLONE_VFORK | SIGCHLD, &work);
    const int clone_errno = errno;
    ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    ::munmap(stack, kChildStackBytes);
    if (pid < 0) throw SpawnError(std::string("clone: ") + std::strerror(clone_errno));
    if (work.failed_step != nullptr) {
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        throw SpawnError(std::string(work.failed_step) + ": " + std::strerror(work.failed_errno));
    }
    return pid;
}

std::string resolve_executable(const std::string& name) {
    if (name.find('/') != std::string::npos) return name;
    const char* path = std::getenv("PATH");
    std::string_view dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
    while (true) {
        const auto colon = dirs.find(':');
        const auto dir = dirs.substr(0, colon);
        const std::string candidate = (dir.empty() ? std::string(".") : std::string(dir)) + "/" + name;
        if (is_executable_file(candidate)) return candidate;
        if (colon == std::string_view::npos) break;
        dirs.remove_prefix(colon + 1);
    }
    throw SpawnError("cannot start '" + name + "': not found in PATH");
}

std::vector<std::string> child_environment(const std::vector<std::string>& extra) {
    std::vector<std::string> env;
    for (const auto& entry : extra) {
        const auto eq = entry.find('=');
        if (eq == std::string::npos || eq == 0) throw SpawnError("environment entry '" + entry + "' is not NAME=value");
    }
    const auto overridden = [&](std::string_view inherited) {
        const auto eq = inherited.find('=');
        const auto name = inherited.substr(0, eq == std::string_view::npos ? inherited.size() : eq + 1);
        for (const auto& entry : extra)
            if (std::string_view(entry).substr(0, entry.find('=') + 1) == name) return true;
        return false;
    };
    for (char** e = environ; e != nullptr && *e != nullptr; ++e)
        if (!overridden(*e)) env.emplace_back(*e);
    env.insert(env.end(), extra.begin(), extra.end());
    return env;
}

}  // namespace lockcheck
