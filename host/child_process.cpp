#include "host/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include "host/log_pump.hpp"
#include "host/run_containment.hpp"

namespace lockcheck {
namespace {

static_assert(SIGSTOP == 19 && SIGCONT == 18, "signal numbers of Linux x86/arm");

std::vector<std::string> full_argv(const ChildSpec& spec) {
    std::vector<std::string> argv;
    if (spec.netns) argv = {"ip", "netns", "exec", *spec.netns};
    argv.insert(argv.end(), spec.argv.begin(), spec.argv.end());
    return argv;
}

/// The controller's fds a spawn hands to the child; closed when the spawn is over.
struct SpawnFds {
    std::vector<int> fds;
    ~SpawnFds() {
        for (const int fd : fds)
            if (fd >= 0) ::close(fd);
    }
    /// Keeps `fd` to close later; throws SpawnError (with `what`) when it is -1.
    int keep(int fd, const std::string& what) {
        if (fd < 0) throw SpawnError(what + ": " + std::strerror(errno));
        fds.push_back(fd);
        return fd;
    }
};

/// The exit code, or 128+signal, from a waitpid status.
int exit_code(int status) { return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status); }

}  // namespace

std::string log_text(const std::filesystem::path& log) {
    std::ifstream in(log);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string last_log_line(const std::filesystem::path& log) { return last_nonblank_line(log_text(log)); }

std::string last_nonblank_line(const std::string& text) {
    std::istringstream in(text);
    std::string line, last;
    while (std::getline(in, line))
        if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
    return last.empty() ? "(log is empty)" : last;
}

struct ChildProcess::Impl {
    std::unique_ptr<ProcessCgroup> cgroup;  ///< the child's subtree, when the run has cgroups
    std::unique_ptr<LogPump> log_pump;      ///< with ChildSpec::bound_log
};

ChildProcess::ChildProcess(const ChildSpec& spec) : impl_(std::make_unique<Impl>()) {
    const auto argv = full_argv(spec);
    if (argv.empty()) throw SpawnError("cannot start a process without argv");
    SpawnPlan plan;
    plan.executable = resolve_executable(argv[0]);
    plan.argv = argv;
    plan.environment = child_environment(spec.env);
    const std::string log = spec.output_log.empty() ? std::string("/dev/null") : spec.output_log.string();
    try {
        impl_->cgroup = new_child_cgroup();
        if (impl_->cgroup) plan.cgroup_procs_file = impl_->cgroup->procs_file();
        SpawnFds handed;  // the child's ends, closed here once it has them
        int log_fd = -1;
        if (spec.bound_log && !spec.output_log.empty()) {  // through a pipe to the controller's pump
            auto bounded = std::make_unique<BoundedLog>(spec.output_log, kBoundedLogKeep, kBoundedLogKeep);
            int ends[2];
            log_fd = handed.keep(::pipe2(ends, O_CLOEXEC) == 0 ? ends[1] : -1, "pipe2");
            impl_->log_pump = std::make_unique<LogPump>(ends[0], std::move(bounded));
        } else {
            log_fd = handed.keep(::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0660),
                                 "cannot open its log " + log);
        }
        plan.stderr_fd = log_fd;
        if (spec.pipe_stdio) {
            int to_child[2], from_child[2];
            handed.keep(::pipe2(to_child, O_CLOEXEC) == 0 ? to_child[0] : -1, "pipe2");
            stdin_fd_ = to_child[1];
            handed.keep(::pipe2(from_child, O_CLOEXEC) == 0 ? from_child[1] : -1, "pipe2");
            stdout_fd_ = from_child[0];
            plan.stdin_fd = to_child[0];
            plan.stdout_fd = from_child[1];
        } else if (spec.socket_stdin) {
            int ends[2];
            handed.keep(::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends) == 0 ? ends[1] : -1,
                        "socketpair");
            stdin_fd_ = ends[0];
            plan.stdin_fd = ends[1];
            plan.stdout_fd = log_fd;
        } else {
            plan.stdin_fd = handed.keep(::open("/dev/null", O_RDONLY | O_CLOEXEC), "cannot open /dev/null");
            plan.stdout_fd = log_fd;
        }
        pid_ = spec.start ? spec.start(plan) : spawn_child(plan);
        // Not reaped before the destructor's kill(), so the PID cannot be reused until then.
        exit_fd_ = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
    } catch (const std::runtime_error& e) {  // SpawnError, or the cgroup that cannot be made
        close_stdin();
        if (stdout_fd_ >= 0) ::close(stdout_fd_);
        stdout_fd_ = -1;
        throw SpawnError("cannot start '" + argv[0] + "': " + e.what());
    }
}

ChildProcess::~ChildProcess() {
    try {
        kill();
    } catch (...) {}
    if (stdin_fd_ >= 0) ::close(stdin_fd_);
    if (stdout_fd_ >= 0) ::close(stdout_fd_);
    if (exit_fd_ >= 0) ::close(exit_fd_);
}

bool ChildProcess::running_locked() {
    if (exit_status_) return false;
    int status = 0;
    const pid_t reaped = ::waitpid(pid_, &status, WNOHANG);
    if (reaped == 0) return true;
    // ECHILD: reaped elsewhere (the run's last clean-up reaps every child); its status is lost.
    exit_status_ = reaped == pid_ ? exit_code(status) : 128 + SIGKILL;
    return false;
}

bool ChildProcess::running() {
    std::lock_guard lock(mutex_);
    return running_locked();
}

std::optional<int> ChildProcess::exit_status() {
    std::lock_guard lock(mutex_);
    running_locked();
    return exit_status_;
}

void ChildProcess::send_signal(int signal) {
    std::lock_guard lock(mutex_);
    if (!exit_status_) ::kill(pid_, signal);  // not reaped yet: the PID is still ours
}

void ChildProcess::signal_group(int signal) {
    std::lock_guard lock(mutex_);
    if (!exit_status_) ::kill(-pid_, signal);  // not reaped yet: its process group is still ours
}

bool ChildProcess::wait_for_exit(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (running()) {
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
}

void ChildProcess::stop(std::chrono::milliseconds grace) {
    signal_group(SIGCONT);
    signal_group(SIGTERM);
    wait_for_exit(grace);
    kill();  // the child if it is still there, and whatever it started
}

void ChildProcess::kill() {
    {
        std::lock_guard lock(mutex_);
        if (!exit_status_) {  // not reaped yet: its PID and process group are still ours
            ::kill(pid_, SIGKILL);
            ::kill(-pid_, SIGKILL);
        }
    }
    if (impl_->cgroup) impl_->cgroup->kill_all();  // every descendant, wherever it went
    std::lock_guard lock(mutex_);
    if (exit_status_) return;
    int status = 0;
    pid_t reaped = -1;
    do reaped = ::waitpid(pid_, &status, 0);
    while (reaped < 0 && errno == EINTR);
    exit_status_ = reaped == pid_ ? exit_code(status) : 128 + SIGKILL;
}

void ChildProcess::close_stdin() {
    std::lock_guard lock(mutex_);
    if (stdin_fd_ >= 0) ::close(stdin_fd_);
    stdin_fd_ = -1;
}

}  // namespace lockcheck
