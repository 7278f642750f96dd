#include "nemesis/proxy_worker_fault.hpp"

#include <spdlog/spdlog.h>

#include "nemesis/worker_target.hpp"

namespace lockcheck {

std::optional<std::vector<std::string>> ProxyWorkerFault::start(const FaultEvent& event, const std::stop_token& stop) {
    const auto target = wait_for_worker_target([this] { return workers_.holders(); }, event.pick,
                                               std::chrono::steady_clock::now() + kWaitForWorkerTarget, stop);
    if (!target) return std::nullopt;
    strike(*target);
    spdlog::info("{}: {} on every link of worker {}", kind(), netproxy::describe(fault_), *target);
    return std::vector<std::string>{"worker " + std::to_string(*target)};
}

}  // namespace lockcheck
