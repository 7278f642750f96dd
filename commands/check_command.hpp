// `lockcheck check PATH`: reruns every checker on a stored run, offline.
#pragma once

#include <filesystem>
#include "commands/subcommand.hpp"

namespace lockcheck {

/// PATH is a run directory (its history.jsonl is checked and its
/// results.json, report.html and junit.xml rewritten, keeping the run's other
/// fields: checked_history.hpp) or a bare history.jsonl (checked and
/// summarised only). Prints the verdict and returns its exit code; a
/// malformed history prints the file:line at fault and returns
/// exit_code::kBadInput, any other failure its one line and code
/// (report_failure).
int check_command(const std::filesystem::path& path);

/// Adds `check` and its flags to the command line (commands/subcommand.hpp).
void register_check(CommandLine& line);

}  // namespace lockcheck
