// A history: the ops of one run in index order, and how invokes pair with
// their completions.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
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

/// Pairs each invoke with its completion one op at a time, in history order:
/// what pair_ops does for a whole history, for a reader that names the line
/// at fault.
class OpPairing {
public:
    /// Pairs history[position]; every op before it must have been added.
    /// Returns the position of its invoke for a completion, kNoOp for an
    /// invoke. Throws HistoryError ("op N: ...") when a process completes an op
    /// it never invoked, invokes a second op before the first completed
    /// (workers are sequential), or completes an op with another f or key
    /// than it invoked.
    std::int64_t add(const History& history, std::size_t position);

private:
    std::unordered_map<int, std::size_t> pending_;  // process -> position of its open invoke
};

/// For every position p of the history: if history[p] is an invoke, the
/// position of its completion (the same process's next op), or kNoOp when the
/// run ended first; for a completion, the position of its invoke.
/// Throws HistoryError as OpPairing::add does.
std::vector<std::int64_t> pair_ops(const History& history);

}  // namespace lockcheck
