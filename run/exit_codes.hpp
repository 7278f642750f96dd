// Process exit codes (docs/design.md, "Verdict and exit code"), and the one
// place that turns a failure into its exit code and its one line.
#pragma once

#include <exception>
#include <stdexcept>
#include <utility>

#include "checkers/checker_result.hpp"

namespace lockcheck::exit_code {

inline constexpr int kValid = 0;
inline constexpr int kInvalid = 1;
inline constexpr int kUnknown = 2;
inline constexpr int kBadInput = 254;      ///< bad arguments, spec or history
inline constexpr int kHarnessError = 255;  ///< the harness itself failed (a server would not start, ...)

inline int for_verdict(Validity v) {
    return v == Validity::Valid ? kValid : v == Validity::Invalid ? kInvalid : kUnknown;
}

}  // namespace lockcheck::exit_code

namespace lockcheck {

/// A failure of the harness itself (exit_code::kHarnessError), whatever the
/// exception that caused it: thrown where an error that would otherwise read
/// as bad input (a SpecError, a HistoryError) is lockcheck's own doing, e.g.
/// a history the run itself wrote that does not read back.
class HarnessError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Prints the one line for `error` on stderr and returns its exit code:
///   - SpecError (a spec, or the arguments that make one) and HistoryError
///     (a history file): "lockcheck: error: WHAT", exit_code::kBadInput;
///   - CLI::ParseError (the command line): "lockcheck: error: WHAT (see
///     lockcheck --help)", exit_code::kBadInput;
///   - any other std::exception, HarnessError among them: "lockcheck: error:
///     WHAT", exit_code::kHarnessError.
/// Rethrows `error` when it is no std::exception.
int report_failure(const std::exception_ptr& error);

/// Runs `command`, which returns an exit code, and returns that code; when
/// `command` throws, returns report_failure's code for what it threw.
template <typename Command>
int exit_code_of(Command&& command) {
    try {
        return std::forward<Command>(command)();
    } catch (...) {
        return report_failure(std::current_exception());
    }
}

}  // namespace lockcheck
