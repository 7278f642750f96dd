// Which histories the lock checkers judge: those of the lock workload.
#pragma once

#include <string_view>

#include "core/history.hpp"

namespace lockcheck {

/// Whether `f` is an op of the lock workload: acquire, release, renew, read, write or hold.
bool is_lock_op(std::string_view f);

/// True when every op of `history` is a lock op or a nemesis's fault marker,
/// so also for a history without client ops; false when it holds an op of
/// another workload (e.g. a stock decrement).
bool history_is_lock(const History& history);

}  // namespace lockcheck
