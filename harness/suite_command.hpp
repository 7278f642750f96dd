// `lockcheck suite [DIR|LABEL]`: runs a set of scenarios and compares each
// verdict with the scenario's `expect`; prints a table and writes suite.json
// and junit.xml into STORE/suites/<timestamp>-<id>/ (each scenario's run
// directory below it, under runs/). Exit 0 when every scenario met its
// expectation, 1 otherwise.
#pragma once

#include <string>

#include "harness/run.hpp"

namespace lockcheck {

/// `selector`: empty (every scenario of default_scenarios_dir()), a directory
/// (its scenarios), a spec file, or a label. Throws SpecError when it selects
/// nothing.
int suite_command(const std::string& selector, const RunOptions& options);

}  // namespace lockcheck
