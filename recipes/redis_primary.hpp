// The connection of a single-primary Redis recipe to "the primary", wherever
// it is now.
//
// Endpoints are either one server ("ip:port") or the sentinels of a
// redis-sentinel topology ("sentinel:ip:port", master name "lockcheck"). With
// sentinels, refresh() asks them in turn for the master's address (SENTINEL
// get-master-addr-by-name, first answer wins) and moves the connection when it
// changed. Recipes call refresh() before each acquire, and the connection asks
// again after a connection error. Like a real Sentinel-aware client, it trusts
// the sentinels: while they still name an old primary that is cut off from its
// replicas, clients keep taking locks there (docs/servers.md, "Redis").
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "recipes/connection_options.hpp"
#include "recipes/redis_connection.hpp"

namespace lockcheck {

class RedisPrimary {
public:
    /// Throws std::invalid_argument for an empty or malformed endpoint list.
    /// Servers and sentinels alike are logged in to with connection.login.
    RedisPrimary(const std::vector<std::string>& endpoints, const ConnectionOptions& connection);

    /// With sentinels: asks them for the current primary and reconnects if it
    /// moved. Without: nothing. Keeps the last known primary when no sentinel answers.
    void refresh();
    /// One command on the current primary (NotSent when none is known yet).
    /// A connection error makes the next refresh() mandatory.
    RedisOutcome command(const std::vector<std::string>& argv);
    /// "ip:port" of the current primary, or "" when unknown.
    std::string endpoint() const { return connection_ ? connection_->endpoint() : ""; }

private:
    ConnectionOptions options_;
    std::vector<std::unique_ptr<RedisConnection>> sentinels_;
    std::unique_ptr<RedisConnection> connection_;
};

/// True when `endpoint` names a sentinel ("sentinel:ip:port").
bool is_sentinel_endpoint(const std::string& endpoint);

}  // namespace lockcheck
