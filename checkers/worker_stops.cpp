#include "checkers/worker_stops.hpp"

#include <algorithm>
#include <string>

#include "checkers/fault_targets.hpp"

namespace lockcheck {
namespace {

bool stops_a_worker(const Op& op) {
    const std::string fault = op.value.value("fault", "");
    return std::any_of(kWorkerStoppingFaults.begin(), kWorkerStoppingFaults.end(),
                       [&](const WorkerStoppingFault& f) { return f.fault == fault; });
}

std::optional<std::int64_t> fault_id(const Op& op) {
    const auto id = op.value.find("id");
    if (id == op.value.end() || !id->is_number_integer()) return std::nullopt;
    return id->get<std::int64_t>();
}

}  // namespace

WorkerStops::WorkerStops(const History& history) {
    std::map<std::int64_t, std::pair<int, std::int64_t>> open;  // fault id -> (worker, stopped from)
    for (const Op& op : history) {
        if (!op.is_nemesis() || !op.value.is_object()) continue;
        const auto id = fault_id(op);
        if (!id) continue;
        if (op.f == fn::kStartFault && !op.is_invoke() && !op.error && stops_a_worker(op)) {
            if (const auto worker = single_targeted_worker(op.value)) open[*id] = {*worker, op.time};
        } else if (op.f == fn::kStopFault && op.is_invoke()) {
            const auto it = open.find(*id);
            if (it == open.end()) continue;
            windows_[it->second.first].push_back({it->second.second, op.time});
            open.erase(it);
        }
    }
    const std::int64_t end = history.empty() ? 0 : history.back().time;
    for (const auto& [id, stopped] : open) windows_[stopped.first].push_back({stopped.second, end});
    for (auto& [process, list] : windows_)
        std::sort(list.begin(), list.end(), [](const Window& a, const Window& b) { return a.from_ns < b.from_ns; });
}

std::optional<std::int64_t> WorkerStops::resumed_no_earlier_than(int process, std::int64_t at_ns) const {
    const auto it = windows_.find(process);
    if (it == windows_.end()) return std::nullopt;
    for (const Window& w : it->second)
        if (w.from_ns <= at_ns && at_ns < w.until_ns) return w.until_ns;
    return std::nullopt;
}

}  // namespace lockcheck
