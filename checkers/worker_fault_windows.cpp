#include "checkers/worker_fault_windows.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "checkers/fault_targets.hpp"

namespace lockcheck {
namespace {

std::optional<std::int64_t> fault_id(const Op& op) {
    const auto id = op.value.find("id");
    if (id == op.value.end() || !id->is_number_integer()) return std::nullopt;
    return id->get<std::int64_t>();
}

bool of_kind(const Op& op, const std::vector<std::string_view>& kinds) {
    const std::string fault = op.value.value("fault", "");
    return std::find(kinds.begin(), kinds.end(), fault) != kinds.end();
}

}  // namespace

std::vector<WorkerFaultWindow> worker_fault_windows(const History& history, const std::vector<std::string_view>& kinds) {
    std::vector<WorkerFaultWindow> windows;
    std::map<std::int64_t, std::int64_t> asked;  // fault id -> its start-fault invoke
    std::map<std::int64_t, WorkerFaultWindow> open;
    for (const Op& op : history) {
        if (!op.is_nemesis() || !op.value.is_object()) continue;
        const auto id = fault_id(op);
        if (!id) continue;
        if (op.f == fn::kStartFault && op.is_invoke()) {
            asked[*id] = op.time;
        } else if (op.f == fn::kStartFault && !op.error && of_kind(op, kinds)) {
            if (const auto worker = single_targeted_worker(op.value)) {
                const auto it = asked.find(*id);
                std::int64_t not_before = it == asked.end() ? op.time : it->second;
                if (const auto struck = op.value.find("struck_ns"); struck != op.value.end() && struck->is_number_integer())
                    not_before = std::clamp(struck->get<std::int64_t>(), not_before, op.time);
                open[*id] = {*worker, not_before, op.time, op.time};
            }
        } else if (op.f == fn::kStopFault && op.is_invoke()) {
            const auto it = open.find(*id);
            if (it == open.end()) continue;
            it->second.until_ns = op.time;
            windows.push_back(it->second);
            open.erase(it);
        }
    }
    const std::int64_t end = history.empty() ? 0 : history.back().time;
    for (auto& [id, window] : open) {
        window.until_ns = end;
        windows.push_back(window);
    }
    std::sort(windows.begin(), windows.end(),
              [](const WorkerFaultWindow& a, const WorkerFaultWindow& b) { return a.from_ns < b.from_ns; });
    return windows;
}

}  // namespace lockcheck
