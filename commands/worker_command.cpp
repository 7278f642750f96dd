#include "commands/worker_command.hpp"

#include <CLI/CLI.hpp>
#include <unistd.h>

#include <iostream>
#include <memory>

#include "host/fork_server_process.hpp"
#include "host/process_title.hpp"
#include "recipes/worker_main.hpp"

namespace lockcheck {
namespace {

struct WorkerFlags {
    std::string run_id;  // only to name the process in `ps`; the init request carries what the worker needs
    int process = 0;
    bool fork_server = false;  // fork ready workers on request (host/fork_server.hpp) instead of serving one
};

int worker_command(const WorkerFlags& flags, const char* const* argv) {
    if (flags.fork_server) {
        const ProcessTitle title(argv);  // found once, in the server, for every worker
        if (const auto server_exit = serve_forks(STDIN_FILENO)) return *server_exit;
        // A forked worker: named as one in `ps`, not as the server it was forked from.
        title.set({argv[0], "worker", "(forked)", "--run-id", flags.run_id});
    }
    return run_worker(std::cin, std::cout);
}

}  // namespace

void register_worker(CommandLine& line) {
    auto flags = std::make_shared<WorkerFlags>();
    auto* worker = line.app.add_subcommand("worker", "Internal: one lock client speaking JSON lines on stdin/stdout");
    worker->group("");  // hidden from --help
    worker->add_option("--run-id", flags->run_id);
    worker->add_option("--process", flags->process);
    worker->add_flag("--fork-server", flags->fork_server);
    on_chosen(*worker, line, [flags, argv = line.argv] { return worker_command(*flags, argv); });
}

}  // namespace lockcheck
