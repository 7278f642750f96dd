// Exact integer reads from JSON.
//
// nlohmann::json converts any number to any arithmetic type with a plain
// static_cast, so `get<std::int64_t>()` on 1e300 is undefined behaviour and
// `get<int>()` on 2^40 silently wraps. Every field that must be an integer
// (op indices, tokens, TTLs, protocol versions) is read through this instead.
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <utility>

#include <nlohmann/json.hpp>

namespace lockcheck {

/// The value of `value` as an Int when it is a JSON integer (not a float,
/// bool or anything else) that Int can hold exactly; std::nullopt otherwise.
template <std::integral Int>
std::optional<Int> json_integer(const nlohmann::json& value) {
    if (value.is_number_unsigned()) {
        const auto u = value.get<std::uint64_t>();
        if (!std::in_range<Int>(u)) return std::nullopt;
        return static_cast<Int>(u);
    }
    if (value.is_number_integer()) {
        const auto i = value.get<std::int64_t>();
        if (!std::in_range<Int>(i)) return std::nullopt;
        return static_cast<Int>(i);
    }
    return std::nullopt;
}

}  // namespace lockcheck
