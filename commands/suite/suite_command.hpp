// `lockcheck suite [DIR|LABEL]`: runs a set of scenarios and compares each
// verdict with the scenario's `expect`; prints a table and writes suite.json
// and junit.xml into STORE/suites/<timestamp>-<id>/ (each scenario's run
// directory below it, under runs/). Exit 0 when every scenario met its
// expectation (in every run, with --repeat), 1 otherwise.
#pragma once

#include <string>

#include "run/run.hpp"
#include "commands/suite/suite_shard.hpp"
#include "commands/subcommand.hpp"

namespace lockcheck {

/// The label of a scenario sensitive to CPU contention: `suite --jobs N`
/// runs it with no other scenario beside it (docs/spec.md, "labels").
inline constexpr const char* kAloneLabel = "alone";

/// How a suite runs its selection.
struct SuiteSettings {
    /// --repeat N (at least 1): each scenario N times, with a fresh seed each
    /// time (a scenario with a fixed seed: seed, seed+1, ...); the suite then
    /// reports its detection rate (commands/suite/detection_rate.hpp): how many runs
    /// met the expectation with a 95% interval, and the median time to the
    /// first violation. A scenario passes (junit testcase, exit code) only
    /// when every one of its runs met its expectation.
    int repeat = 1;
    /// --shard K/N (commands/suite/suite_shard.hpp): only the K-th of N slices of the
    /// selection; 1/1 is all of it.
    SuiteShard shard;
    /// --jobs N (at least 1): up to N scenarios side by side, each run in a
    /// `lockcheck run` process of its own (run/child_run.hpp; its output
    /// in runs/<scenario>/console.log), a scenario labelled kAloneLabel by
    /// itself. The table, suite.json and junit.xml keep the suite's order.
    int jobs = 1;
};

/// `selector`: empty (every scenario of default_scenarios_dir()), a directory
/// (its scenarios), a spec file, or a label. Throws SpecError when it selects
/// nothing, or for a repeat or jobs below 1.
int suite_command(const std::string& selector, const RunOptions& options, const SuiteSettings& settings = {});

/// Adds `suite` and its flags to the command line (commands/subcommand.hpp; commands/suite/suite_flags.cpp).
void register_suite(CommandLine& line);

}  // namespace lockcheck
