#include "nemesis/clock_skew.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include "clusters/clock_offset.hpp"

namespace lockcheck {

std::optional<std::string> ClockSkew::unavailable_reason() const {
    for (const Node* n : nodes_)
        if (!std::filesystem::exists(clock_offset_file(n->dir())))
            return "node " + n->name() + " does not run with the clock library";
    if (node_count_ < 1 || node_count_ > static_cast<int>(nodes_.size())) return "clock_skew_nodes is out of range";
    return std::nullopt;
}

std::optional<std::vector<std::string>> ClockSkew::start(const FaultEvent& event, const std::stop_token& stop) {
    auto candidates = locator_.nodes_of_current_lock(std::chrono::seconds(2), stop);
    if (stop.stop_requested()) return std::nullopt;
    if (static_cast<int>(candidates.size()) < node_count_) candidates = nodes_;
    std::rotate(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(event.pick % candidates.size()),
                candidates.end());
    std::vector<std::string> targets;
    for (int i = 0; i < node_count_; ++i) {
        Node* n = candidates[static_cast<std::size_t>(i)];
        action_.strike(n->name(),
                       [n](const std::string& text) { n->rewrite_in_place(clock_offset_file(n->dir()), text); });
        targets.push_back(n->name());
    }
    spdlog::info("clock-skew: {} on {}", clock_change_summary(action_.change()), fmt::join(targets, ", "));
    return targets;
}

void ClockSkew::heal() noexcept { action_.heal(); }

}  // namespace lockcheck
