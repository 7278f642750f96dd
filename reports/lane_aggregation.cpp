#include "reports/lane_aggregation.hpp"

#include <set>

namespace lockcheck {

std::size_t aggregate_lanes(std::vector<KeyTimeline>& keys, const std::vector<ViolationMark>& violations,
                            std::size_t max_lanes) {
    std::size_t lanes = 0;
    for (const auto& key : keys) lanes += key.processes.size();
    if (lanes <= max_lanes) return 0;
    std::size_t aggregated = 0;
    for (auto& key : keys) {
        std::set<int> cited;
        for (const auto& mark : violations) {
            if (mark.advisory || (!mark.key.empty() && mark.key != key.key)) continue;
            cited.insert(mark.processes.begin(), mark.processes.end());
            for (const auto& span : mark.spans) cited.insert(span.process);
        }
        std::vector<int> own;  // the cited workers that used this key: processes is ascending, so is own
        for (int process : key.processes)
            if (cited.count(process) > 0) own.push_back(process);
        if (own.size() + 1 >= key.processes.size()) continue;  // aggregating would draw as many lanes
        key.aggregated = true;
        key.own_lanes = std::move(own);
        ++aggregated;
    }
    return aggregated;
}

}  // namespace lockcheck
