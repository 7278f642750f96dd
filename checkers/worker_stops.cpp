#include "checkers/worker_stops.hpp"

#include "checkers/worker_fault_windows.hpp"

namespace lockcheck {

std::vector<std::string_view> worker_stopping_fault_names() {
    std::vector<std::string_view> names;
    for (const WorkerStoppingFault& f : kWorkerStoppingFaults) names.push_back(f.fault);
    return names;
}

WorkerStops::WorkerStops(const History& history) {
    for (const WorkerFaultWindow& w : worker_fault_windows(history, worker_stopping_fault_names()))
        windows_[w.process].push_back({w.from_ns, w.until_ns});
}

std::optional<std::int64_t> WorkerStops::resumed_no_earlier_than(int process, std::int64_t at_ns) const {
    const auto it = windows_.find(process);
    if (it == windows_.end()) return std::nullopt;
    for (const Window& w : it->second)
        if (w.from_ns <= at_ns && at_ns < w.until_ns) return w.until_ns;
    return std::nullopt;
}

}  // namespace lockcheck
