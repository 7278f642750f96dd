// `lockcheck suite [DIR|LABEL]`: runs a set of scenarios and compares each
// verdict with the scenario's `expect`; prints a table and writes suite.json
// and junit.xml into STORE/suites/<timestamp>-<id>/ (each scenario's run
// directory below it, under runs/). Exit 0 when every scenario met its
// expectation (in every run, with --repeat), 1 otherwise.
#pragma once

#include <string>

#include "harness/run.hpp"

namespace lockcheck {

/// `selector`: empty (every scenario of default_scenarios_dir()), a directory
/// (its scenarios), a spec file, or a label. Throws SpecError when it selects
/// nothing. `repeat` (--repeat N, at least 1) runs each scenario N times, with
/// a fresh seed each time (a scenario with a fixed seed: seed, seed+1, ...),
/// and reports its detection rate (harness/detection_rate.hpp): how many runs
/// met the expectation with a 95% interval, and the median time to the first
/// violation. A scenario passes (junit testcase, exit code) only when every
/// one of its runs met its expectation.
int suite_command(const std::string& selector, const RunOptions& options, int repeat = 1);

}  // namespace lockcheck
