// `lockcheck clean`: removes whatever runs that died left behind
// (run/dead_runs.hpp says what that is) and never touches a live run.
#pragma once

#include "commands/subcommand.hpp"

namespace lockcheck {

/// Cleans every dead run, prints what was removed and how many runs were
/// cleaned or left alone, and returns exit code 0.
int clean_command();

/// Adds `clean` and its flags to the command line (commands/subcommand.hpp).
void register_clean(CommandLine& line);

}  // namespace lockcheck
