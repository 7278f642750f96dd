// The Redis id generator's counter (recipe redis-incr-ids): one per workload
// key, INCR'd for every id. The suffix also tells the nemesis which keys are
// id counters (nemesis/lock_location.cpp): their value changes with every id,
// so they are located by key alone.
#pragma once

#include <string>
#include <string_view>

namespace lockcheck {

/// What an id counter's key ends with.
inline constexpr std::string_view kIdCounterSuffix = ":ids";

/// The key of `key`'s id counter: key + ":ids".
inline std::string id_counter_key(const std::string& key) { return key + std::string(kIdCounterSuffix); }

}  // namespace lockcheck
