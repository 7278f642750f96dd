// When the nemesis had a worker stopped (SIGSTOP), as the history records it.
//
// The faults that stop a worker are listed in kWorkerStoppingFaults, each with
// its reason. Such a fault's start-fault completion names one target
// "worker N": the worker is stopped from that completion (the signal was sent
// before it was recorded) until the same fault's stop-fault invoke (the
// continue signal is sent only after it). A stopped worker reads nothing: a
// request the controller sent while it was stopped took effect after the
// worker resumed, that is, no earlier than the stop-fault invoke.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include "core/history.hpp"

namespace lockcheck {

/// A fault that stops a worker process, and why it counts as one.
struct WorkerStoppingFault {
    std::string_view fault;
    std::string_view reason;
};

inline constexpr std::array<WorkerStoppingFault, 2> kWorkerStoppingFaults{{
    {"pause-holder", "SIGSTOPs the worker that holds a lock, SIGCONTs it at the fault's stop"},
    {"pause-client", "SIGSTOPs any worker, holder or waiter, SIGCONTs it at the fault's stop"},
}};

/// The names of kWorkerStoppingFaults.
std::vector<std::string_view> worker_stopping_fault_names();

/// The stop windows of every worker in a history (checkers/worker_fault_windows.hpp).
class WorkerStops {
public:
    explicit WorkerStops(const History& history);

    /// When `process` was stopped at `at_ns` (a request it was sent then is
    /// read only after it resumes): the instant it resumed at the earliest
    /// (the stop-fault invoke; the history's end when it never resumed).
    std::optional<std::int64_t> resumed_no_earlier_than(int process, std::int64_t at_ns) const;

private:
    struct Window {
        std::int64_t from_ns = 0;
        std::int64_t until_ns = 0;
    };
    std::map<int, std::vector<Window>> windows_;  ///< process -> its stops, in time order
};

}  // namespace lockcheck
