#include "host/system_command.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "host/process_spawn.hpp"
#include "host/run_containment.hpp"

namespace lockcheck {
namespace {

/// An fd closed when it goes out of scope.
struct OwnedFd {
    int fd = -1;
    ~OwnedFd() { reset(); }
    void reset() {
        if (fd >= 0) ::close(fd);
        fd = -1;
    }
};

/// Everything written to `fd` until EOF.
std::string read_until_eof(int fd) {
    std::string text;
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n > 0) {
            text.append(buffer, static_cast<std::size_t>(n));
        } else if (n == 0 || errno != EINTR) {
            return text;
        }
    }
}

/// Reaps `pid`; its exit code, or 128+signal.
int wait_exit_code(pid_t pid) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

}  // namespace

std::string join_argv(const std::vector<std::string>& argv) {
    std::string text;
    for (const auto& a : argv) {
        if (!text.empty()) text += ' ';
        text += a;
    }
    return text;
}

CommandResult run_command(const std::vector<std::string>& argv, const std::filesystem::path& input) {
    if (argv.empty()) throw CommandError("empty command");
    const auto cannot_run = [&](const std::string& why) {
        return CommandError("cannot run `" + join_argv(argv) + "`: " + why);
    };
    SpawnPlan plan;
    try {
        plan.executable = resolve_executable(argv[0]);
    } catch (const SpawnError&) {
        throw CommandError("`" + argv[0] + "` is not installed (not found in PATH)");
    }
    plan.argv = argv;
    std::unique_ptr<ProcessCgroup> cgroup;  // when the run has cgroups: whatever the command leaves dies with it
    OwnedFd stdin_file, out_read, out_write;
    try {
        plan.environment = child_environment({});
        cgroup = new_child_cgroup();
        if (cgroup) plan.cgroup_procs_file = cgroup->procs_file();
    } catch (const std::runtime_error& e) {
        throw cannot_run(e.what());
    }
    stdin_file.fd = ::open(input.empty() ? "/dev/null" : input.c_str(), O_RDONLY | O_CLOEXEC);
    int pipe_fds[2] = {-1, -1};
    if (stdin_file.fd < 0 || ::pipe2(pipe_fds, O_CLOEXEC) != 0) throw cannot_run(std::strerror(errno));
    out_read.fd = pipe_fds[0];
    out_write.fd = pipe_fds[1];
    plan.stdin_fd = stdin_file.fd;
    plan.stdout_fd = out_write.fd;
    plan.stderr_fd = out_write.fd;
    pid_t pid = -1;
    try {
        pid = spawn_child(plan);
    } catch (const SpawnError& e) {
        throw cannot_run(e.what());
    }
    out_write.reset();  // the child holds the only write end now: EOF when it (and what it left) is done
    CommandResult result;
    result.output = read_until_eof(out_read.fd);
    result.exit_code = wait_exit_code(pid);
    return result;
}

std::string run_checked(const std::vector<std::string>& argv) {
    auto result = run_command(argv);
    if (result.exit_code != 0) {
        auto first_line = result.output.substr(0, result.output.find('\n'));
        throw CommandError("`" + join_argv(argv) + "` failed: " +
                           (first_line.empty() ? "exit " + std::to_string(result.exit_code) : first_line));
    }
    return result.output;
}

}  // namespace lockcheck
