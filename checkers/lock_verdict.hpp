// The verdict on one key's lock ops, shared by the fast check and the search.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "checkers/checker_result.hpp"
#include "checkers/lock_certificate.hpp"

namespace lockcheck {

/// Finding kinds of the linearizability checker.
inline constexpr const char* kDoubleGrant = "double-grant";
inline constexpr const char* kBusyWhileFree = "busy-while-free";
inline constexpr const char* kReleaseWithoutHold = "release-without-hold";
inline constexpr const char* kNotLinearizable = "not-linearizable";

/// One proof of non-linearizability. `ops` index KeyLockOps::ops; the ops
/// alone (as a sub-history) cannot be linearized.
struct LockFinding {
    std::string kind;
    std::vector<std::uint32_t> ops;
    std::string description;
};

struct KeyVerdict {
    Validity valid = Validity::Valid;
    std::vector<LockFinding> findings;  ///< at most the caller's limit
    std::size_t total_findings = 0;     ///< including those not listed
    /// Busy-while-free answers that an indeterminate acquire explains under
    /// leases (checkers/indeterminate_cover.hpp): not findings, listed apart
    /// (at most the caller's limit) and counted.
    std::vector<LockFinding> explained;
    std::size_t total_explained = 0;
    Certificate certificate;         ///< when valid
    std::string note;                ///< why unknown, or why the search was needed
    std::size_t search_configs = 0;  ///< configurations the search explored (0: fast path)
};

}  // namespace lockcheck
