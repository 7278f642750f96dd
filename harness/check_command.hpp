// `lockcheck check PATH`: reruns every checker on a stored run, offline.
#pragma once

#include <filesystem>

namespace lockcheck {

/// PATH is a run directory (its history.jsonl is checked and its
/// results.json rewritten, keeping the run's other fields) or a bare
/// history.jsonl (checked and summarised only). Prints the verdict and
/// returns its exit code; a malformed history prints the file:line at fault
/// and returns exit_code::kBadInput.
int check_command(const std::filesystem::path& path);

}  // namespace lockcheck
