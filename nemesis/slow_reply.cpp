#include "nemesis/slow_reply.hpp"

#include <spdlog/spdlog.h>

#include "nemesis/proxy_node_fault.hpp"
#include "nemesis/worker_target.hpp"

namespace lockcheck {

std::optional<std::string> SlowReply::unavailable_reason() const { return proxy_unavailable_reason(proxy_); }

std::optional<std::vector<std::string>> SlowReply::start(const FaultEvent& event, const std::stop_token& stop) {
    const auto target = wait_for_worker_target([this] { return workers_.holders(); }, event.pick,
                                               std::chrono::steady_clock::now() + kWaitForWorkerTarget, stop);
    if (!target) return std::nullopt;
    std::lock_guard lock(mutex_);
    proxy_->set_worker_fault(*target, netproxy::faults::slow_reply(latency_));
    slowed_ = *target;
    spdlog::info("slow-reply: worker {}'s replies delayed by {} ms", *target, latency_.count());
    return std::vector<std::string>{"worker " + std::to_string(*target)};
}

void SlowReply::heal() noexcept {
    std::lock_guard lock(mutex_);
    if (!slowed_) return;
    try {
        proxy_->set_worker_fault(*slowed_, netproxy::faults::pass());
    } catch (const std::exception& e) {
        spdlog::warn("slow-reply: heal: {}", e.what());
        proxy_->heal_all();
    }
    slowed_.reset();
}

}  // namespace lockcheck
