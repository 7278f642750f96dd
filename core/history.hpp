// A history: the ops of one run in index order, and how invokes pair with
// their completions.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/op.hpp"

namespace lockcheck {

using History = std::vector<Op>;

/// Thrown for a history that cannot be read or breaks the op contract; the
/// message names the file and line (or the op index) at fault.
class HistoryError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Index of no op.
inline constexpr std::int64_t kNoOp = -1;

/// For every position p of the history: if history[p] is an invoke, the
/// position of its completion (the same process's next op), or kNoOp when the
/// run ended first; for a completion, the position of its invoke.
/// Throws HistoryError when a process completes an op it never invoked, or
/// invokes a second op before the first completed (workers are sequential).
std::vector<std::int64_t> pair_ops(const History& history);

}  // namespace lockcheck
