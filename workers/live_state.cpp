#include "workers/live_state.hpp"

#include <algorithm>

namespace lockcheck {

void LiveState::acquired(int process, const std::string& key) {
    std::lock_guard lock(mutex_);
    const auto [first, last] = holders_.equal_range(key);
    overlaps_ += std::count_if(first, last, [&](const auto& h) { return h.second.process != process; });
    holders_.emplace(key, Holding{process, std::chrono::steady_clock::now()});
}

void LiveState::releasing(int process, const std::string& key) {
    std::lock_guard lock(mutex_);
    auto [first, last] = holders_.equal_range(key);
    for (auto it = first; it != last; ++it)
        if (it->second.process == process) {
            holders_.erase(it);
            return;
        }
}

void LiveState::forget(int process) {
    std::lock_guard lock(mutex_);
    std::erase_if(holders_, [&](const auto& h) { return h.second.process == process; });
    acquiring_.erase(process);
    renewing_.erase(process);
}

void LiveState::acquiring(int process, const std::string&) {
    std::lock_guard lock(mutex_);
    acquiring_[process] = std::chrono::steady_clock::now();
}

void LiveState::acquire_done(int process) {
    std::lock_guard lock(mutex_);
    acquiring_.erase(process);
}

void LiveState::renewing(int process) {
    std::lock_guard lock(mutex_);
    renewing_.insert(process);
    ++renews_sent_;
}

void LiveState::renew_done(int process) {
    std::lock_guard lock(mutex_);
    renewing_.erase(process);
}

std::vector<int> LiveState::renewing() const {
    std::lock_guard lock(mutex_);
    return {renewing_.begin(), renewing_.end()};
}

std::int64_t LiveState::renews_sent() const {
    std::lock_guard lock(mutex_);
    return renews_sent_;
}

std::vector<int> LiveState::acquiring_for(std::chrono::milliseconds at_least) const {
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    std::vector<int> out;
    for (const auto& [process, since] : acquiring_)
        if (now - since >= at_least) out.push_back(process);
    return out;
}

std::vector<int> LiveState::holders() const {
    std::lock_guard lock(mutex_);
    std::vector<int> out;
    for (const auto& [key, holding] : holders_) out.push_back(holding.process);
    return out;
}

std::vector<int> LiveState::granted_since(std::chrono::steady_clock::time_point since) const {
    std::lock_guard lock(mutex_);
    std::vector<int> out;
    for (const auto& [key, holding] : holders_)
        if (holding.granted >= since) out.push_back(holding.process);
    return out;
}

std::int64_t LiveState::overlaps() const {
    std::lock_guard lock(mutex_);
    return overlaps_;
}

}  // namespace lockcheck
