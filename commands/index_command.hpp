// `lockcheck index`: store/index.html, every run in the store with its
// scenario, verdict and start time, newest first, linking its report.html
// (reports/store_index.hpp; docs/reports.md).
#pragma once

#include <filesystem>
#include <vector>

#include "reports/store_index.hpp"
#include "commands/subcommand.hpp"

namespace lockcheck {

/// Every run directory under `store`, at any depth (single runs, and those
/// inside suites/ and compare/): a directory holding spec.json and
/// history.jsonl. Symbolic links (store/latest) are not followed. Newest
/// first, by the UTC timestamp that starts a run directory's name.
std::vector<IndexedRun> collect_runs(const std::filesystem::path& store);

/// Writes STORE/index.html and prints its path and how many runs it lists.
/// Throws SpecError when `store` is not a directory.
int index_command(const std::filesystem::path& store);

/// Adds `index` and its flags to the command line (commands/subcommand.hpp).
void register_index(CommandLine& line);

}  // namespace lockcheck
