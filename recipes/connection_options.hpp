// How a Redis or MariaDB recipe's client connects to the servers, and which
// worker it serves.
#pragma once

#include <chrono>
#include <optional>

#include "clusters/servers/server_credentials.hpp"

namespace lockcheck {

struct ConnectionOptions {
    /// How long one server call may take (connect, send, reply).
    std::chrono::milliseconds timeout{1000};
    /// The login every new connection makes (the init's "auth");
    /// nullopt when the servers ask for none.
    std::optional<ClientCredentials> login = std::nullopt;
    /// The worker's process number (the init's "process"): a recipe that
    /// names its clients by it (snowflake-ids' worker id) reads it here.
    int process = 0;
};

}  // namespace lockcheck
