#include "nemesis/slow_reply.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <thread>

#include "nemesis/proxy_node_fault.hpp"

namespace lockcheck {
namespace {

constexpr auto kWaitForHolder = std::chrono::seconds(5);
constexpr auto kPoll = std::chrono::milliseconds(1);

}  // namespace

std::optional<std::string> SlowReply::unavailable_reason() const { return proxy_unavailable_reason(proxy_); }

std::optional<std::vector<std::string>> SlowReply::start(const FaultEvent& event, const std::stop_token& stop) {
    const auto give_up = std::chrono::steady_clock::now() + kWaitForHolder;
    while (!stop.stop_requested() && std::chrono::steady_clock::now() < give_up) {
        auto holders = workers_.holders();
        if (holders.empty()) {
            std::this_thread::sleep_for(kPoll);
            continue;
        }
        std::sort(holders.begin(), holders.end());
        const int target = holders[event.pick % holders.size()];
        std::lock_guard lock(mutex_);
        proxy_->set_worker_fault(target, netproxy::faults::slow_reply(latency_));
        slowed_ = target;
        spdlog::info("slow-reply: worker {}'s replies delayed by {} ms", target, latency_.count());
        return std::vector<std::string>{"worker " + std::to_string(target)};
    }
    return std::nullopt;
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
