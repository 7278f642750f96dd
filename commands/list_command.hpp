// `lockcheck list`: the recipes, topologies, runtimes and nemeses this build
// has, each with its options, and the scenarios (docs/usage.md).
#pragma once

#include "commands/subcommand.hpp"

namespace lockcheck {

/// Prints the list; returns exit code 0.
int list_command();

/// Adds `list` to the command line (commands/subcommand.hpp).
void register_list(CommandLine& line);

}  // namespace lockcheck
