#include "commands/shrink/shrink_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "commands/shrink/ddmin.hpp"

namespace lockcheck {
namespace {

/// The steps, sharing the shape so far and the first violations of the last
/// candidate kept.
class Search {
public:
    Search(const SearchStart& start, const TryShape& try_shape)
        : best_(start.shape),
          first_(start.first_violation_seconds),
          counts_(start.count_options),
          window_ms_(start.merge_window_ms),
          try_(try_shape) {}

    /// Tries `shape`; keeps it when kept. False when the search must stop.
    bool attempt(const ShrinkShape& shape, const std::string& step, const std::string& removed, bool* was_kept) {
        const auto verdict = try_(shape, step, removed);
        if (!verdict) return false;
        if (was_kept) *was_kept = verdict->kept;
        if (verdict->kept) {
            best_ = shape;
            if (!verdict->first_violation_seconds.empty()) first_ = verdict->first_violation_seconds;
        }
        return true;
    }

    bool started_events(const std::set<int>& started) {
        ShrinkShape shape = best_;
        std::erase_if(shape.events, [&](const FaultEvent& e) { return !started.count(e.id); });
        if (shape.events.empty() || shape.events.size() == best_.events.size()) return true;
        std::vector<FaultEvent> removed;
        for (const auto& e : best_.events)
            if (!started.count(e.id)) removed.push_back(e);
        return attempt(shape, "events not started before the first violation",
                       std::to_string(removed.size()) + " events (" + event_ids(removed) + ")", nullptr);
    }

    bool delta_debugging() {
        const std::vector<FaultEvent> all = best_.events;
        bool stop = false;
        const auto result = ddmin(all.size(), [&](const std::vector<std::size_t>& positions) -> std::optional<bool> {
            ShrinkShape shape = best_;
            shape.events.clear();
            std::vector<FaultEvent> removed;
            for (std::size_t i = 0, p = 0; i < all.size(); ++i)
                if (p < positions.size() && positions[p] == i) {
                    shape.events.push_back(all[i]);
                    ++p;
                } else {
                    removed.push_back(all[i]);
                }
            bool was_kept = false;  // a kept subset becomes best_, the list ddmin goes on from
            if (!attempt(shape, "events (ddmin)",
                         std::to_string(removed.size()) + " of " + std::to_string(all.size()) + " events (" +
                             event_ids(removed) + ")",
                         &was_kept)) {
                stop = true;
                return std::nullopt;
            }
            return was_kept;
        });
        best_.events.clear();
        for (const auto i : result.kept) best_.events.push_back(all[i]);
        return !stop && !result.stopped;
    }

    /// Tries the events merge_events joins, unless that list was tried already.
    bool merge() {
        const auto merged = merge_events(best_.events, counts_, window_ms_);
        if (!merged || merged->events == merge_tried_) return true;
        merge_tried_ = merged->events;
        ShrinkShape shape = best_;
        shape.events = merged->events;
        return attempt(shape, "merge", merged->words, nullptr);
    }

    /// Lowers the count option of each event that has one (a merged event)
    /// one at a time, to 1, until a candidate is refused.
    bool fewer_targets() {
        for (std::size_t i = 0; i < best_.events.size(); ++i) {
            const auto option = counts_.find(best_.events[i].kind);
            if (option == counts_.end()) continue;
            for (bool was_kept = true; was_kept;) {
                const std::int64_t count = event_count(best_.events[i], option->second);
                if (count <= 1) break;
                ShrinkShape shape = best_;
                shape.events[i] = with_count(best_.events[i], option->second, count - 1);
                if (!attempt(shape, "targets per event",
                             fmt::format("1 target of id {} ({} {} -> {})", shape.events[i].id, option->second.name,
                                         count, count - 1),
                             &was_kept))
                    return false;
            }
        }
        return true;
    }

    /// Lowers `count` (a field of the shape) one at a time to 1.
    bool fewer(int ShrinkShape::*count, const std::string& step, const std::string& unit) {
        while (best_.*count > 1) {
            ShrinkShape shape = best_;
            --(shape.*count);
            bool was_kept = false;
            if (!attempt(shape, step, "1 " + unit + " (" + std::to_string(best_.*count) + " -> " +
                                          std::to_string(shape.*count) + ")",
                         &was_kept))
                return false;
            if (!was_kept) break;
        }
        return true;
    }

    bool shorter() {
        if (first_.empty()) return true;
        const double limit = time_limit_past(first_);
        if (limit >= best_.time_limit_s) return true;
        ShrinkShape shape = best_;
        shape.time_limit_s = limit;
        std::erase_if(shape.events, [&](const FaultEvent& e) { return static_cast<double>(e.at_ms) >= limit * 1000; });
        char words[96];
        std::snprintf(words, sizeof words, "%.0f s of the time limit (%.0f s -> %.0f s)", best_.time_limit_s - limit,
                      best_.time_limit_s, limit);
        return attempt(shape, "time limit", words, nullptr);
    }

    const ShrinkShape& best() const { return best_; }

private:
    ShrinkShape best_;
    std::vector<double> first_;
    CountOptions counts_;
    std::int64_t window_ms_;
    std::vector<FaultEvent> merge_tried_;  ///< the events of the last merge candidate
    TryShape try_;
};

}  // namespace

double time_limit_past(const std::vector<double>& first_violation_seconds) {
    const double latest = *std::max_element(first_violation_seconds.begin(), first_violation_seconds.end());
    return std::ceil(latest * 1.25 + 1);
}

std::string event_ids(const std::vector<FaultEvent>& events) {
    std::string ids;
    for (std::size_t i = 0; i < events.size();) {
        std::size_t j = i;  // events[i..j] have consecutive ids: "3-65"
        while (j + 1 < events.size() && events[j + 1].id == events[j].id + 1) ++j;
        ids += (ids.empty() ? "" : ", ") + std::to_string(events[i].id);
        if (j > i) ids += (j == i + 1 ? ", " : "-") + std::to_string(events[j].id);
        i = j + 1;
    }
    return (events.size() == 1 ? "id " : "ids ") + ids;
}

SearchResult shrink_search(const SearchStart& start, const TryShape& try_shape) {
    Search search(start, try_shape);
    const bool done = search.started_events(start.started_before_violation) && search.merge() &&
                      search.delta_debugging() && search.merge() &&
                      search.fewer(&ShrinkShape::workers, "workers", "worker") &&
                      search.fewer(&ShrinkShape::keys, "keys", "key") && search.fewer_targets() && search.shorter();
    return {search.best(), !done};
}

}  // namespace lockcheck
