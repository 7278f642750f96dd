// `lockcheck run [SPEC]`: one scenario, run and checked (run/run.hpp); its
// flags override the spec's fields (run/run_flags.hpp), or --replay runs a
// stored run again.
#pragma once

#include "commands/subcommand.hpp"

namespace lockcheck {

/// Adds `run` and its flags to the command line (commands/subcommand.hpp).
void register_run(CommandLine& line);

}  // namespace lockcheck
