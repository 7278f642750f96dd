#include "nemesis/proxy_worker_fault.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "nemesis/worker_target.hpp"

namespace lockcheck {

std::vector<int> ProxyWorkerFault::candidates() const {
    if (!idle_target_) return workers_.holders();
    std::vector<int> busy = workers_.holders();
    const std::vector<int> acquiring = workers_.acquiring_for(std::chrono::milliseconds(0));
    busy.insert(busy.end(), acquiring.begin(), acquiring.end());
    std::vector<int> idle;
    for (const int w : workers_.live_workers())
        if (std::find(busy.begin(), busy.end(), w) == busy.end()) idle.push_back(w);
    return idle;
}

std::optional<std::vector<std::string>> ProxyWorkerFault::start(const FaultEvent& event, const std::stop_token& stop) {
    const auto target = wait_for_worker_target([this] { return candidates(); }, event.pick,
                                               std::chrono::steady_clock::now() + kWaitForWorkerTarget, stop);
    if (!target) return std::nullopt;
    strike(*target);
    spdlog::info("{}: {} on every link of worker {}", kind(), netproxy::describe(fault_), *target);
    return std::vector<std::string>{"worker " + std::to_string(*target)};
}

}  // namespace lockcheck
