// Built-in workers forked from one started worker instead of exec'd one by one.
//
// An exec'd `lockcheck worker` spends 25-35 ms of CPU in the dynamic loader
// before it reads its init (docs/benchmarks.md); 200 of them are 7-10 s of CPU
// on two cores. The fork server is one `lockcheck worker --fork-server`,
// started once per run; every built-in worker is then a fork of that small,
// already-loaded process (host/fork_server_process.hpp), so a worker costs
// one fork instead of an exec. A user's own worker command (client_cmd) is
// still exec'd by spawn_child.
//
// The workers are the controller's children (the server forks each one as
// its own sibling, or double-forks and the controller, a child subreaper,
// adopts them), so ChildProcess waits for, signals and kills them as it does
// exec'd ones, and each one is in its own cgroup before it reads its init
// (forked into it, or joining it first thing). The server itself is a ChildProcess
// in a cgroup of its own, ended and reaped with the ForkServer, by the end of
// the run's containment at the latest, and by PR_SET_PDEATHSIG (then `lockcheck
// clean`'s removal of the run's cgroup) after kill -9.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "host/child_process.hpp"
#include "host/fork_request_pipeline.hpp"
#include "host/process_spawn.hpp"

namespace lockcheck {

class ForkServer {
public:
    /// How long spawn() waits for the server's next answer.
    static constexpr std::chrono::milliseconds kReplyTimeout{10'000};
    /// How many spawns from as many threads keep the server busy: it forks the
    /// next worker while the controller sets up the ones it has answered.
    static constexpr int kSpawnsInFlight = 8;

    /// Starts `argv` (a program that calls serve_forks on its stdin, e.g.
    /// `lockcheck worker --fork-server`), its stdin a socket to this process,
    /// its stdout and stderr appended to `log`, with LD_BIND_NOW=1 (every
    /// symbol is bound once, in the server, not again in every worker). Throws std::logic_error when
    /// this process is not a child subreaper (the workers would be adopted by
    /// init: construct it while a RunContainment lives), SpawnError when the
    /// server cannot be started.
    ForkServer(const std::vector<std::string>& argv, const std::filesystem::path& log);
    /// Closes the socket (the server exits at EOF), waits up to 2 s, then
    /// SIGKILLs it by PID; reaps it either way.
    ~ForkServer();
    ForkServer(const ForkServer&) = delete;
    ForkServer& operator=(const ForkServer&) = delete;

    pid_t pid() const { return server_->pid(); }

    /// Forks a worker whose fds 0-2 are the plan's stdin_fd, stdout_fd and
    /// stderr_fd (the plan's executable, argv and environment are ignored: the
    /// worker is a copy of the server), in the cgroup of plan.cgroup_procs_file
    /// when one is named (forked into it, or joining it before it reads
    /// anything; a worker that cannot join it says so in its log and exits
    /// 127), and returns its PID, a child of this process. Throws SpawnError
    /// ("fork server (pid N): ...") when it cannot. Once the
    /// server has exited, not answered in time or sent garbage, this and every
    /// later spawn fail with that one reason. Thread-safe and pipelined: calls
    /// from several threads have their requests in flight together
    /// (host/fork_request_pipeline.hpp). The ChildSpec::start of built-in
    /// workers.
    pid_t spawn(const SpawnPlan& plan);

private:
    std::unique_ptr<ChildProcess> server_;
    std::unique_ptr<ForkRequestPipeline> requests_;  ///< over server_'s socket
};

}  // namespace lockcheck
