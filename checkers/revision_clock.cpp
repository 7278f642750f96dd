#include "checkers/revision_clock.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace lockcheck {

RevisionClock::RevisionClock(std::vector<RevisionAnchor> anchors) : by_revision_(std::move(anchors)) {
    std::sort(by_revision_.begin(), by_revision_.end(),
              [](const RevisionAnchor& a, const RevisionAnchor& b) { return a.revision < b.revision; });
    const std::size_t n = by_revision_.size();
    latest_invoke_before_.resize(n);
    earliest_done_from_.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        latest_invoke_before_[i] =
            std::max(i ? latest_invoke_before_[i - 1] : by_revision_[i].invoke_ns, by_revision_[i].invoke_ns);
    for (std::size_t i = n; i-- > 0;)
        earliest_done_from_[i] = std::min(i + 1 < n ? earliest_done_from_[i + 1] : by_revision_[i].completion_ns,
                                          by_revision_[i].completion_ns);
}

std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>> RevisionClock::place(std::int64_t revision) const {
    const auto first_at_or_after =
        std::lower_bound(by_revision_.begin(), by_revision_.end(), revision,
                         [](const RevisionAnchor& a, std::int64_t r) { return a.revision < r; });
    const auto i = static_cast<std::size_t>(first_at_or_after - by_revision_.begin());
    std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>> out;
    if (i > 0) out.first = latest_invoke_before_[i - 1];
    if (i < by_revision_.size()) out.second = earliest_done_from_[i];
    return out;
}

std::string placed_words(const RevisionClock& clock, std::int64_t revision) {
    const auto [after, before] = clock.place(revision);
    const auto ms = [](std::int64_t ns) { return static_cast<double>(ns) / 1e6; };
    if (after && before) return fmt::format(" (between {:.1f} and {:.1f} ms into the run)", ms(*after), ms(*before));
    if (after) return fmt::format(" (after {:.1f} ms into the run)", ms(*after));
    if (before) return fmt::format(" (before {:.1f} ms into the run)", ms(*before));
    return "";
}

}  // namespace lockcheck
