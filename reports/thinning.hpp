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
    // `keep` is asked once per item, in order (callers may count in it). Only
    // what is returned is moved: a 1M-op history's 500k latency points are
    // never copied into a second vector.
    std::vector<bool> must(items.size());
    std::size_t must_count = 0;
    for (std::size_t i = 0; i < items.size(); ++i) must_count += (must[i] = keep(items[i])) ? 1 : 0;
    const std::size_t rest_count = items.size() - must_count;
    const std::size_t room = must_count < cap ? cap - must_count : 0;  // < rest_count, as items.size() > cap
    const double stride = room > 0 ? static_cast<double>(rest_count) / static_cast<double>(room) : 0;
    std::vector<T> kept, spaced;
    kept.reserve(must_count + room);
    spaced.reserve(room);
    std::size_t rest_index = 0, picked = 0;  // picks rest items floor(0 * stride), floor(1 * stride), ...
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (must[i]) {
            kept.push_back(std::move(items[i]));
            continue;
        }
        if (picked < room && rest_index == static_cast<std::size_t>(static_cast<double>(picked) * stride)) {
            spaced.push_back(std::move(items[i]));
            ++picked;
        }
        ++rest_index;
    }
    for (auto& item : spaced) kept.push_back(std::move(item));
    return kept;
}

}  // namespace lockcheck
