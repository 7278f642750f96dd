// A worker slot's seeded random choices (keys, hold and think times): the same
// seed and slot give the same sequence, so a replay repeats them.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "spec/spec.hpp"

namespace lockcheck {

class SlotRandom {
public:
    SlotRandom(std::uint64_t seed, int slot) : rng_(seed * 1000003u + static_cast<std::uint64_t>(slot)) {}

    /// A duration drawn uniformly from [lo, max(lo, hi)] ms.
    std::chrono::milliseconds between(std::int64_t lo, std::int64_t hi) {
        return std::chrono::milliseconds(std::uniform_int_distribution<std::int64_t>(lo, std::max(lo, hi))(rng_));
    }
    std::chrono::milliseconds within(const Range& range) { return between(range.min, range.max); }

    /// One of `keys` (not empty), uniformly.
    const std::string& pick(const std::vector<std::string>& keys) { return keys[rng_() % keys.size()]; }

private:
    std::mt19937_64 rng_;
};

}  // namespace lockcheck
