// `lockcheck compare SPEC --vary FIELD=V1,V2,... [--vary ...] --runs N`:
// runs every cell of the grid N times, with the same N seeds in every cell,
// then prints a table and writes compare.json and compare.html into
// STORE/compare/<timestamp>-<id>/ (the runs under cells/).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "run/run.hpp"
#include "commands/subcommand.hpp"

namespace lockcheck {

struct CompareOptions {
    std::filesystem::path spec_path;
    std::vector<std::string> varies;  ///< raw --vary options
    int runs = 3;
    std::optional<std::uint64_t> seed;  ///< first seed (default: the spec's, else random); run i uses seed + i
    std::optional<double> time_limit;   ///< overrides every cell's time_limit_s
};

/// Returns 0 when every run produced a verdict, 255 when some failed; a bad
/// spec or --vary throws SpecError before anything runs.
int compare_command(const CompareOptions& compare, const RunOptions& options);

/// Adds `compare` and its flags to the command line (commands/subcommand.hpp; commands/compare/compare_flags.cpp).
void register_compare(CommandLine& line);

}  // namespace lockcheck
