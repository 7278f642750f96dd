#include "nemesis/clock_action.hpp"

#include <chrono>

#include <spdlog/spdlog.h>

#include "core/interruptible_sleep.hpp"

namespace lockcheck {

void ClockAction::strike(const std::string& target, Writer write) {
    std::lock_guard lock(mutex_);
    auto [it, fresh] = states_.try_emplace(target, lc_clock_identity());
    const ClockState next = change_.mode == ClockMode::strobe ? clock_strobed(it->second, change_, true)
                                                              : clock_struck(it->second, change_, real_wall_clock_ns());
    write(clock_state_text(next));
    it->second = next;
    jumped_ = true;
    struck_.emplace_back(target, std::move(write));
    if (change_.mode == ClockMode::strobe && !strobe_.joinable())
        strobe_ = std::jthread([this](const std::stop_token& stop) { strobe(stop); });
}

void ClockAction::strobe(const std::stop_token& stop) {
    while (interruptible_sleep_for(stop, std::chrono::milliseconds(change_.strobe_ms))) flip();
}

void ClockAction::flip() {
    std::lock_guard lock(mutex_);
    if (change_.mode != ClockMode::strobe) return;
    jumped_ = !jumped_;
    for (const auto& [target, write] : struck_) {
        ClockState& state = states_.at(target);
        try {
            const ClockState next = clock_strobed(state, change_, jumped_);
            write(clock_state_text(next));
            state = next;
        } catch (const std::exception& e) {
            spdlog::warn("clock strobe of {}: {}", target, e.what());
        }
    }
}

ClockAction::~ClockAction() { stop_strobe(); }

void ClockAction::stop_strobe() noexcept {
    if (!strobe_.joinable()) return;
    strobe_.request_stop();
    strobe_.join();
}

void ClockAction::heal() noexcept {
    stop_strobe();
    std::lock_guard lock(mutex_);
    for (const auto& [target, write] : struck_) {
        ClockState& state = states_.at(target);
        try {
            const ClockState next = clock_healed(state, change_, real_wall_clock_ns());
            write(clock_state_text(next));
            state = next;
        } catch (const std::exception& e) {
            spdlog::warn("clock heal of {}: {}", target, e.what());
        }
    }
    struck_.clear();
}

}  // namespace lockcheck
