// Reading a fault's targets as the nemesis records them ("worker N", "n1").
#pragma once

#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

namespace lockcheck {

/// N when `target` is exactly "worker N" (N a non-negative number below 10^9).
std::optional<int> targeted_worker(std::string_view target);

/// The worker a fault op struck when its value's targets name exactly one
/// target and that target is a worker; nullopt otherwise.
std::optional<int> single_targeted_worker(const nlohmann::json& fault_value);

}  // namespace lockcheck
