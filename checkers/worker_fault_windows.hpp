// The windows in which the nemesis had a fault on one worker, as the history
// records them: from a start-fault completion naming exactly one target
// "worker N" (the fault acted before it was recorded; its invoke, before
// which it had not acted, is kept too, or the completion's `struck_ns` when
// later: the moment the fault was about to act, after it waited for its aim)
// until the same fault's stop-fault
// invoke (the heal begins only after it), or the history's end. Shared by
// checkers/worker_stops.hpp (pause faults) and checkers/danger_counts.hpp.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/history.hpp"

namespace lockcheck {

struct WorkerFaultWindow {
    int process = 0;
    std::int64_t asked_ns = 0;  ///< the start-fault invoke, or its struck_ns when later: it had not acted before
    std::int64_t from_ns = 0;   ///< the start-fault completion: it had acted by then
    std::int64_t until_ns = 0;  ///< the stop-fault invoke (or the history's end): it acted until then
};

/// Every window of a fault named in `kinds`, in order of their start.
/// Start-faults that failed, or named no target, several, or one that is no
/// worker, open none.
std::vector<WorkerFaultWindow> worker_fault_windows(const History& history, const std::vector<std::string_view>& kinds);

}  // namespace lockcheck
