// Runs of tests/clients/misbehaving_client.py (a worker that breaks the
// protocol on purpose) and what must hold after each: the run reaches a
// verdict, the op in flight completes with the reason, the worker is replaced.
#pragma once

#include <string>

#include "tests/support/integration_helpers.hpp"

namespace lockcheck::testing {

/// A spec file for a short run (3 workers, 6 s, no faults) of the
/// misbehaving client in MODE (see its docstring).
std::string misbehaving_spec(const std::string& mode);

/// Completed ops in the run's history whose error contains `text`.
int ops_with_error(const RunOutcome& run, const std::string& text);

/// The highest process number in the run's history (replacements get new ones).
int highest_process(const RunOutcome& run);

/// Adds a gtest failure unless the run of MODE reached a verdict, completed
/// at least one op with an error containing `reason`, replaced workers, and
/// shows no false overlap from the dead ones.
void expect_replaced_and_judged(const RunOutcome& run, const std::string& mode, const std::string& reason);

}  // namespace lockcheck::testing
