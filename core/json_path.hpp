// Reading a value nested in JSON objects by its path of member names.
#pragma once

#include <initializer_list>
#include <string_view>

#include <nlohmann/json.hpp>

namespace lockcheck {

/// The value at `path` (member names, outermost first) inside `j`, or nullptr
/// when some step is missing or not an object.
inline const nlohmann::json* json_at(const nlohmann::json& j, std::initializer_list<std::string_view> path) {
    const nlohmann::json* at = &j;
    for (const std::string_view step : path) {
        if (!at->is_object()) return nullptr;
        const auto it = at->find(step);
        if (it == at->end()) return nullptr;
        at = &*it;
    }
    return at;
}

}  // namespace lockcheck
