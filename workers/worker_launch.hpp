// How a run starts each worker process: the built-in `lockcheck worker`, or
// the user's own client (`client_cmd`), and the init request it receives.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "host/child_process.hpp"
#include "host/fork_server.hpp"
#include "spec/spec.hpp"
#include "recipes/protocol.hpp"

namespace lockcheck {

struct WorkerLaunch {
    ChildSpec child;
    WorkerInit init;
};

/// Worker `process` of a run: with `spec.client_cmd`, `/bin/sh -c CMD` (so
/// the user's quoting, `VAR=1 cmd` and `cd d && cmd` work; the shell and what
/// it starts share the worker's process group, which pause, stop and kill
/// signal: host/child_process.hpp); otherwise this binary's `worker`
/// subcommand, forked from `fork_server` when one is given (its argv is then
/// the server's, fork_server_argv). stdin/stdout are the protocol pipes;
/// stderr goes to RUN_DIR/workers/worker-<process>.log. The init names the
/// topology's nodes and carries `login`, how to log in to them (its "auth").
/// With `clock_library` (client-clock-skew) the worker is exec'd, never
/// forked, with LD_PRELOAD of it and an offset file of its own, at 0, in
/// worker_clock_dir(RUN_DIR/workers, process) (nemesis/client_clock_skew.hpp);
/// a client_cmd of plain words (workers/plain_words_client.hpp) then runs without
/// the shell, behind the clock launcher beside the library
/// (clock_launcher_beside), so that a statically linked client's clocks move too.
/// Why a client clock fault may not move `spec`'s client's clocks, or "":
/// its client_cmd needs the shell (it is no plain words), so only
/// LD_PRELOAD reaches the program, never a statically linked one, and the
/// fault is recorded as struck all the same. "" without a client_cmd or
/// without a fault that moves the workers' clocks (`moves_worker_clocks`).
std::string shell_client_clock_warning(const Spec& spec, bool moves_worker_clocks);

WorkerLaunch worker_launch(const Spec& spec, const std::vector<std::string>& endpoints,
                           const std::optional<ClientCredentials>& login, const std::filesystem::path& self_exe,
                           const std::filesystem::path& run_dir, const std::string& run_id, int process,
                           ForkServer* fork_server = nullptr,
                           const std::optional<std::filesystem::path>& clock_library = std::nullopt);

/// The run's fork server for built-in workers (host/fork_server.hpp):
/// this binary's `worker --fork-server`, named with the run id (for `ps` and
/// leftover checks, as exec'd workers are), its log RUN_DIR/workers/fork-server.log.
std::vector<std::string> fork_server_argv(const std::filesystem::path& self_exe, const std::string& run_id);
std::filesystem::path fork_server_log(const std::filesystem::path& run_dir);

}  // namespace lockcheck
