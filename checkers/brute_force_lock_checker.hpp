// Reference checker for the lock model: tries every linearization order.
//
// Deliberately simple and independent of the fast checker: it reads the
// history itself (pairing each invoke with the same process's next op), and
// for each key enumerates orders of that key's acquires and releases, where an
// indeterminate op may also be left out, remembering only the (placed set,
// holder) pairs that led nowhere. Exponential: for small histories in tests.
// The model is the one of checkers/lock_ops.hpp.
#pragma once

#include <cstddef>

#include "checkers/checker_result.hpp"
#include "core/history.hpp"

namespace lockcheck {

/// Valid iff every key's lock ops are linearizable; Unknown when a key has
/// more than `max_ops_per_key` (at most 30) lock ops.
Validity brute_force_lock_check(const History& history, std::size_t max_ops_per_key = 20);

}  // namespace lockcheck
