// Thinning what report.html draws down to a cap, keeping what matters.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace lockcheck {

/// Keeps every item `keep` says must stay, then evenly spaced others up to
/// `cap` items in all (the kept ones alone may exceed it). Order: the kept
/// ones first, then the others; callers sort when order matters.
template <typename T, typename Keep>
std::vector<T> thin(std::vector<T> items, std::size_t cap, Keep keep) {
    if (items.size() <= cap) return items;
    std::vector<T> kept;
    std::vector<T> rest;
    for (auto& item : items) (keep(item) ? kept : rest).push_back(std::move(item));
    if (kept.size() < cap && !rest.empty()) {
        const std::size_t room = cap - kept.size();
        const double stride = static_cast<double>(rest.size()) / static_cast<double>(room);
        for (std::size_t i = 0; i < room; ++i)
            kept.push_back(std::move(rest[static_cast<std::size_t>(static_cast<double>(i) * stride)]));
    }
    return kept;
}

}  // namespace lockcheck
