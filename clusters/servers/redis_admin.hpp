// Short administrative commands from the controller to a redis-server or a
// redis-sentinel (readiness checks, "who is the primary", "which key is held
// where"). Each call opens its own connection: these are rare and must never
// share state with the lock clients.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace lockcheck {

/// Runs `argv` at address:port, after AUTH `password` when it is not empty.
/// The reply flattened to strings (a status, string or integer reply is one
/// element; an array gives its elements, nested arrays flattened; nil gives
/// ""), or nullopt when the server cannot be reached, times out, refuses the
/// password or answers with an error.
std::optional<std::vector<std::string>> redis_admin_command(
    const std::string& address, int port, const std::string& password, const std::vector<std::string>& argv,
    std::chrono::milliseconds timeout = std::chrono::milliseconds(300));

/// The value of `field` in the text of an INFO reply ("field:value" lines).
std::optional<std::string> info_field(const std::string& info, const std::string& field);

/// The value after `field` in a flat field/value list (e.g. SENTINEL MASTER).
std::optional<std::string> pair_field(const std::vector<std::string>& pairs, const std::string& field);

}  // namespace lockcheck
