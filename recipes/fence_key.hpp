// The Redis recipes' fencing-token counter: one per lock key, INCR'd on every
// grant, so tokens grow with every grant of that key.
#pragma once

#include <string>
#include <string_view>

namespace lockcheck {

/// What a lock key's counter key ends with.
inline constexpr std::string_view kFenceKeySuffix = ":fence";

/// The key of `key`'s fencing-token counter: key + ":fence".
inline std::string fence_key(const std::string& key) { return key + std::string(kFenceKeySuffix); }

}  // namespace lockcheck
