// Process exit codes (docs/design.md, "Verdict and exit code").
#pragma once

#include "checkers/checker_result.hpp"

namespace lockcheck::exit_code {

inline constexpr int kValid = 0;
inline constexpr int kInvalid = 1;
inline constexpr int kUnknown = 2;
inline constexpr int kBadInput = 254;     ///< bad arguments, spec or history
inline constexpr int kHarnessError = 255; ///< the harness itself failed (a server would not start, ...)

inline int for_verdict(Validity v) {
    return v == Validity::Valid ? kValid : v == Validity::Invalid ? kInvalid : kUnknown;
}

}  // namespace lockcheck::exit_code
