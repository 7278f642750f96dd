// Recipe "redis-set-nx-px": the single-instance Redis lock of the Redis docs.
//
// acquire: SET key owner NX PX ttl. The fencing token comes from a counter
//          (fence_key(key): key + ":fence") incremented in the same Lua
//          script, so tokens grow in grant order (Redis has no token of its
//          own; see docs/recipes/).
// release: compare-and-delete in Lua (GET == owner then DEL), so a client
//          never deletes a lock someone else holds.
// On a redis-sentinel topology it asks the sentinels for the primary before
// each acquire (recipes/redis_primary.hpp); release goes to the same server.
// Promise: mutual exclusion while the holder finishes within its TTL on one
// healthy server. Breaks when the holder pauses past its TTL (the lease
// expires under it) - the case fencing tokens exist for.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "recipes/lock_client.hpp"
#include "recipes/recipe_descriptor.hpp"
#include "recipes/redis_primary.hpp"
#include "recipes/redis_replies.hpp"

namespace lockcheck {

class RedisSetNxPx : public LockClient {
public:
    /// `endpoints`: one server, or the sentinels of a redis-sentinel topology.
    RedisSetNxPx(const std::vector<std::string>& endpoints, const ConnectionOptions& connection);
    /// One server at `endpoint` ("ip:port").
    RedisSetNxPx(const std::string& endpoint, const ConnectionOptions& connection)
        : RedisSetNxPx(std::vector<std::string>{endpoint}, connection) {}
    LockResult acquire(const LockRequest& request) override;
    LockResult release(const LockRequest& request) override;

protected:  // recipes that vary one step of this one reuse the others
    RedisPrimary connection_;
};

/// The descriptor of this recipe (recipes/redis_set_nx_px_descriptor.cpp).
RecipeDescriptor redis_set_nx_px_recipe();

}  // namespace lockcheck
