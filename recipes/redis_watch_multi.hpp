// Recipe "redis-watch-multi": the lock key taken and released by optimistic
// transactions (WATCH / MULTI / EXEC) instead of SET NX or Lua.
//
// WATCH/MULTI/EXEC is compare-and-set for data that lives in Redis. The
// protected resource here lives outside Redis (in the controller, as a
// database or a file would), so a transaction cannot make the update itself
// safe; what it can do is take a lease on a lock key. That is what "acquire"
// means for this recipe:
// acquire: WATCH key; GET key: a value -> UNWATCH, fail held. Otherwise MULTI;
//          SET key owner PX ttl; INCR key:fence; EXEC. EXEC aborted (someone
//          touched the key since WATCH) -> fail held; else ok with the
//          counter as fencing token. An EXEC whose reply is lost is info;
//          anything failing before EXEC did not take effect (fail).
// release: WATCH key; GET == owner ? MULTI; DEL; EXEC : UNWATCH, not-owner.
// Promise: the same as redis-set-nx-px (a lease lock); a holder paused past
// its TTL loses the lock (docs/recipes/redis-watch-multi.md).
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "recipes/lock_client.hpp"
#include "recipes/recipe_descriptor.hpp"
#include "recipes/redis_connection.hpp"

namespace lockcheck {

class RedisWatchMulti : public LockClient {
public:
    RedisWatchMulti(const std::string& endpoint, const ConnectionOptions& connection);
    LockResult acquire(const LockRequest& request) override;
    LockResult release(const LockRequest& request) override;

private:
    RedisConnection connection_;

    /// WATCH key, then GET it. On success `value` holds the value (nullopt for
    /// none) and the result is nullopt; otherwise the failure to return.
    std::optional<LockResult> watch_and_get(const std::string& key, std::optional<std::string>& value);
    /// MULTI, the queued `commands`, EXEC. The EXEC reply (nil when aborted) in
    /// `exec`, or the failure to return.
    std::optional<LockResult> transaction(const std::vector<std::vector<std::string>>& commands, RedisOutcome& exec);
    /// Drops WATCH/MULTI state after `failed` (best effort; nothing to drop
    /// when the connection was lost).
    void abandon(const RedisOutcome& failed);
};

/// The descriptor of this recipe (recipes/redis_watch_multi_descriptor.cpp).
RecipeDescriptor redis_watch_multi_recipe();

}  // namespace lockcheck
