#include "clusters/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <boost/process.hpp>
#include <boost/process/extend.hpp>
#include <fstream>
#include <sstream>
#include <thread>

#include "clusters/contained_spawn.hpp"
#include "clusters/run_containment.hpp"

namespace bp = boost::process;

namespace lockcheck {
namespace {

static_assert(SIGSTOP == 19 && SIGCONT == 18, "signal numbers of Linux x86/arm");

/// Runs in the child between fork and exec.
struct IsolateChild : bp::extend::handler {
    template <typename Executor>
    void on_exec_setup(Executor&) const {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        ::setpgid(0, 0);
        // The controller blocks and ignores signals for its own handling; a server must not inherit that.
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        ::signal(SIGPIPE, SIG_DFL);
    }
};

std::vector<std::string> full_argv(const ChildSpec& spec) {
    std::vector<std::string> argv;
    if (spec.netns) argv = {"ip", "netns", "exec", *spec.netns};
    argv.insert(argv.end(), spec.argv.begin(), spec.argv.end());
    return argv;
}

/// The controller's environment with `extra` ("NAME=value") set on top.
bp::environment child_environment(const std::vector<std::string>& extra) {
    bp::environment env = boost::this_process::environment();
    for (const auto& entry : extra) {
        const auto eq = entry.find('=');
        if (eq == std::string::npos || eq == 0) throw SpawnError("environment entry '" + entry + "' is not NAME=value");
        env[entry.substr(0, eq)] = entry.substr(eq + 1);
    }
    return env;
}

boost::filesystem::path executable(const std::string& name) {
    if (name.find('/') != std::string::npos) return name;
    auto found = bp::search_path(name);
    if (found.empty()) throw SpawnError("cannot start '" + name + "': not found in PATH");
    return found;
}

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
    bp::child child;
    std::unique_ptr<ProcessCgroup> cgroup;  ///< the child's subtree, when the run has cgroups
};

ChildProcess::ChildProcess(const ChildSpec& spec) {
    const auto argv = full_argv(spec);
    if (argv.empty()) throw SpawnError("cannot start a process without argv");
    const auto exe = executable(argv[0]);
    const std::vector<std::string> args(argv.begin() + 1, argv.end());
    const std::string log = spec.output_log.empty() ? std::string("/dev/null") : spec.output_log.string();
    const bp::environment env = child_environment(spec.env);
    std::error_code ec;
    impl_ = std::make_unique<Impl>();
    try {
        impl_->cgroup = new_child_cgroup();
    } catch (const std::runtime_error& e) {
        throw SpawnError("cannot start '" + argv[0] + "': " + e.what());
    }
    const JoinCgroup contain{{}, impl_->cgroup ? impl_->cgroup->procs_file().c_str() : nullptr};
    if (spec.pipe_stdio) {
        bp::pipe to_child, from_child;
        impl_->child = bp::child(exe, bp::args(args), bp::std_in<to_child, bp::std_out> from_child, bp::std_err > log,
                                 env, IsolateChild{}, contain, ec);
        if (!ec) {
            stdin_fd_ = ::fcntl(to_child.native_sink(), F_DUPFD_CLOEXEC, 0);
            stdout_fd_ = ::fcntl(from_child.native_source(), F_DUPFD_CLOEXEC, 0);
        }
    } else {
        impl_->child = bp::child(exe, bp::args(args), bp::std_in<bp::null, (bp::std_out & bp::std_err)> log, env,
                                 IsolateChild{}, contain, bp::limit_handles, ec);
    }
    if (ec) throw SpawnError("cannot start '" + argv[0] + "': " + ec.message());
    pid_ = impl_->child.id();
}

ChildProcess::~ChildProcess() {
    try {
        kill();
    } catch (...) {}
    if (stdin_fd_ >= 0) ::close(stdin_fd_);
    if (stdout_fd_ >= 0) ::close(stdout_fd_);
}

bool ChildProcess::running_locked() {
    if (exit_status_) return false;
    std::error_code ec;
    if (impl_->child.running(ec)) return true;
    const int native = impl_->child.native_exit_code();
    exit_status_ = WIFSIGNALED(native) ? 128 + WTERMSIG(native) : WEXITSTATUS(native);
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
    std::error_code ec;
    impl_->child.wait(ec);
    running_locked();
    if (!exit_status_) exit_status_ = 128 + SIGKILL;
}

void ChildProcess::close_stdin() {
    std::lock_guard lock(mutex_);
    if (stdin_fd_ >= 0) ::close(stdin_fd_);
    stdin_fd_ = -1;
}

}  // namespace lockcheck
