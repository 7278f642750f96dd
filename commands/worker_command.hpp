// `lockcheck worker` (internal, hidden from --help): one lock client speaking
// JSON lines on stdin/stdout (recipes/worker_main.hpp), or with
// --fork-server a server that forks ready workers on request
// (host/fork_server_process.hpp).
#pragma once

#include "commands/subcommand.hpp"

namespace lockcheck {

/// Adds `worker` and its flags to the command line (commands/subcommand.hpp).
void register_worker(CommandLine& line);

}  // namespace lockcheck
