#include "host/fork_server.hpp"

#include <fcntl.h>
#include <sys/prctl.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "host/fork_server_protocol.hpp"
#include "netproxy/unique_fd.hpp"

namespace lockcheck {

ForkServer::ForkServer(const std::vector<std::string>& argv, const std::filesystem::path& log) {
    int subreaper = 0;
    if (::prctl(PR_GET_CHILD_SUBREAPER, &subreaper) != 0 || subreaper == 0)
        throw std::logic_error("a fork server needs its controller to be a child subreaper (a RunContainment)");
    // Every symbol bound once, in the server: a worker then neither looks symbols up on first
    // call nor writes the server's GOT pages (copy-on-write faults), as lazy binding would.
    ChildSpec spec{argv, std::nullopt, log, false, {"LD_BIND_NOW=1"}};
    spec.socket_stdin = true;
    server_ = std::make_unique<ChildProcess>(spec);
    requests_ = std::make_unique<ForkRequestPipeline>(server_->stdin_fd(), kReplyTimeout);
}

ForkServer::~ForkServer() {
    server_->close_stdin();
    if (!server_->wait_for_exit(std::chrono::seconds(2))) server_->kill();
}

pid_t ForkServer::spawn(const SpawnPlan& plan) {
    // The worker's cgroup goes with the request: the server forks the worker
    // into it (cgroup v2), or the worker joins it before anything else.
    netproxy::UniqueFd cgroup_dir;
    if (!plan.cgroup_procs_file.empty()) {
        const auto dir = std::filesystem::path(plan.cgroup_procs_file).parent_path();
        cgroup_dir.reset(::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
        if (!cgroup_dir.valid())
            throw SpawnError("cannot open its cgroup " + dir.string() + ": " + std::strerror(errno));
    }
    try {
        return requests_->fork({{plan.stdin_fd, plan.stdout_fd, plan.stderr_fd}, cgroup_dir.get()});
    } catch (const ForkProtocolError& e) {  // refused, or the exchange is lost (then for every later spawn too)
        throw SpawnError(std::string("fork server (pid ") + std::to_string(server_->pid()) + "): " + e.what());
    }
}

}  // namespace lockcheck
