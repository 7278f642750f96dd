// The lockcheck command line: its subcommands (run, suite, compare, shrink, check,
// export, index, list, clean, and the internal worker), their flags, and
// what a mistyped command line says (docs/usage.md).
#pragma once

namespace lockcheck {

/// Parses `argv` and runs the subcommand it names; returns the process's exit
/// code (run/exit_codes.hpp). A command line that cannot be parsed, an
/// unknown subcommand among them, gets one line on stderr naming the problem
/// (and, for a subcommand, every valid one) and exit_code::kBadInput.
int lockcheck_main(int argc, const char* const* argv);

}  // namespace lockcheck
