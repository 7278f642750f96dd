// Recipe "redis-getset-timestamp": the lock of the old SETNX documentation,
// whose lease lives in the value as an expiry time on the client's clock.
//
// acquire: SETNX key "<expires_at_ms> <owner>" (expires_at = client's wall
//          clock + ttl): 1 -> held. Otherwise GET key; if its expiry is still
//          in the future by this client's clock -> fail held; else GETSET key
//          with a new value, and the lock is ours only if GETSET returned the
//          value GET saw (nobody took it over first). The key itself has no
//          TTL. A loser's GETSET still overwrites the winner's value (the
//          scheme's known wart). No fencing token.
// release: DEL key only while this client's own expiry has not passed by its
//          clock (ok), else fail not-owner without touching the key.
// Promise: mutual exclusion while client clocks agree and holders finish
// within the TTL. It depends on every client's clock; a holder paused past
// its expiry is taken over (docs/recipes/redis-getset-timestamp.md).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>

#include "recipes/lock_client.hpp"
#include "recipes/recipe_descriptor.hpp"
#include "recipes/redis_connection.hpp"

namespace lockcheck {

class RedisGetsetTimestamp : public LockClient {
public:
    RedisGetsetTimestamp(const std::string& endpoint, const ConnectionOptions& connection);
    LockResult acquire(const LockRequest& request) override;
    LockResult release(const LockRequest& request) override;

private:
    RedisConnection connection_;
    std::map<std::string, std::int64_t> expires_at_ms_;  ///< owner -> the expiry its acquire wrote

    /// GETSET after seeing the expired value `seen`: ok if it was still `seen`.
    LockResult take_over(const std::string& key, const std::string& seen, const std::string& mine);
};

/// The descriptor of this recipe (recipes/redis_getset_timestamp_descriptor.cpp).
RecipeDescriptor redis_getset_timestamp_recipe();

}  // namespace lockcheck
