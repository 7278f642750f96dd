// The lockcheck command line: the app its subcommands (run, suite, compare,
// certify, shrink, check, export, index, list, clean, images, and the
// internal worker) register themselves in, each with its flags beside its
// command (commands/subcommand.hpp), and what a mistyped command line says
// (docs/usage.md).
#pragma once

namespace lockcheck {

/// Parses `argv` and runs the subcommand it names; returns the process's exit
/// code (run/exit_codes.hpp). A command line that cannot be parsed, an
/// unknown subcommand among them, gets one line on stderr naming the problem
/// (and, for a subcommand, every valid one) and exit_code::kBadInput.
int lockcheck_main(int argc, const char* const* argv);

}  // namespace lockcheck
