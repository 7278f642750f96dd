// `lockcheck export --edn PATH`: a stored history as Jepsen's history.edn.
#pragma once

#include <filesystem>
#include <optional>
#include "commands/subcommand.hpp"

namespace lockcheck {

/// Reads the history of PATH (a run directory or a history.jsonl) and writes
/// it as EDN to `output`, or by default to history.edn beside the history
/// ("-" writes to stdout). Returns the exit code: 0, exit_code::kBadInput
/// for a malformed history (one line naming file and line), or
/// exit_code::kHarnessError when the output cannot be written (report_failure).
int export_edn_command(const std::filesystem::path& path, const std::optional<std::filesystem::path>& output);

/// Adds `export` and its flags to the command line (commands/subcommand.hpp).
void register_export(CommandLine& line);

}  // namespace lockcheck
