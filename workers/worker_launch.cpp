#include "workers/worker_launch.hpp"

#include <fmt/format.h>

#include "clusters/clock_offset.hpp"
#include "workers/plain_words_client.hpp"
#include "nemesis/client_clock_skew.hpp"

namespace lockcheck {

std::string shell_client_clock_warning(const Spec& spec, bool moves_worker_clocks) {
    if (!moves_worker_clocks || !spec.client_cmd || plain_command_words(*spec.client_cmd)) return "";
    return "the client command needs a shell (it is not only a program and its arguments), so the client clock "
           "fault reaches it through LD_PRELOAD only: a statically linked client's clock does not move, yet the "
           "fault is recorded as struck. Write it as plain words (e.g. `./client --flag`) to start it through the "
           "clock launcher";
}

WorkerLaunch worker_launch(const Spec& spec, const std::vector<std::string>& endpoints,
                           const std::optional<ClientCredentials>& login, const std::filesystem::path& self_exe,
                           const std::filesystem::path& run_dir, const std::string& run_id, int process,
                           ForkServer* fork_server, const std::optional<std::filesystem::path>& clock_library) {
    WorkerLaunch launch;
    const auto plain_words = spec.client_cmd && clock_library ? plain_command_words(*spec.client_cmd) : std::nullopt;
    if (plain_words) {  // behind the clock launcher, which reaches a statically linked client too
        launch.child.argv = {clock_launcher_beside(*clock_library).string(), "--"};
        launch.child.argv.insert(launch.child.argv.end(), plain_words->begin(), plain_words->end());
    } else if (spec.client_cmd)
        launch.child.argv = {"/bin/sh", "-c", *spec.client_cmd};
    else
        launch.child.argv = {self_exe.string(), "worker", "--run-id", run_id, "--process", std::to_string(process)};
    launch.child.output_log = run_dir / "workers" / fmt::format("worker-{}.log", process);
    launch.child.pipe_stdio = true;
    launch.child.bound_log = true;  // a client flooding stderr must not fill the store's disk
    launch.child.env = clock_environment(clock_library, worker_clock_dir(run_dir / "workers", process));
    if (fork_server && !spec.client_cmd && !clock_library)
        launch.child.start = [fork_server](const SpawnPlan& plan) { return fork_server->spawn(plan); };
    launch.init = {process, spec.recipe,         spec.topology, endpoints,  spec.server_timeout_ms,
                   run_id,  spec.recipe_options, login,         spec.ttl_ms};
    return launch;
}

std::vector<std::string> fork_server_argv(const std::filesystem::path& self_exe, const std::string& run_id) {
    return {self_exe.string(), "worker", "--fork-server", "--run-id", run_id};
}

std::filesystem::path fork_server_log(const std::filesystem::path& run_dir) {
    return run_dir / "workers" / "fork-server.log";
}

}  // namespace lockcheck
