// `lockcheck shrink RUN_DIR [--budget DURATION] [--runs R] [--store DIR]`:
// from a failing run, the smallest spec found that still fails with the same
// violation kind (commands/shrink/shrink_search.hpp), each candidate run R times as
// child runs and kept when at least R - 1 of them fail so. Writes
// STORE/<scenario>/shrink-<id>/: spec.json (standalone, explicit schedule),
// shrink.json (every step), report.html (of a failing run of the result) and
// candidates/ and runs/ (every candidate's spec, console logs and run
// directories). docs/usage.md, "lockcheck shrink".
#pragma once

#include <chrono>
#include <filesystem>
#include <string>

#include "run/run.hpp"
#include "commands/subcommand.hpp"

namespace lockcheck {

struct ShrinkOptions {
    std::filesystem::path run_dir;
    std::string budget = "10m";  ///< DURATION: the search stops once it is spent, with the best so far
    int runs = 3;                ///< R
};

/// "90", "90s", "10m", "1h" (whole numbers) as a duration; throws SpecError
/// naming the flag for anything else, or for 0.
std::chrono::seconds parse_budget(const std::string& text);

/// Runs the shrink; `options` gives self_exe, the store (where shrink-<id>
/// goes) and the interrupt (Ctrl-C: the candidate in flight stops, the best
/// so far is written, no fresh runs follow). Returns 0 once the result is
/// written and its fresh runs reproduced the kind (at least R - 1 of R);
/// 2 when they did not, or when interrupted. Bad input (see
/// read_shrink_input, flags) throws SpecError; a candidate whose run could
/// not run (exit 254 or 255) throws HarnessError with its error line.
int shrink_command(const ShrinkOptions& shrink, const RunOptions& options);

/// Adds `shrink` and its flags to the command line (commands/subcommand.hpp; commands/shrink/shrink_flags.cpp).
void register_shrink(CommandLine& line);

}  // namespace lockcheck
