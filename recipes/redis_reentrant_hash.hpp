// Recipe "redis-reentrant-hash": Redisson's re-entrant lock. The lock is a
// hash whose field per owner counts how often that owner entered it.
//
// acquire: in Lua: if the key does not exist, HINCRBY key owner 1, PEXPIRE
//          key ttl and take a fencing token (INCR key:fence, kept in the
//          hash's "fence" field); if the owner's field exists, HINCRBY it
//          (re-entry), PEXPIRE, and return the same token; else fail held.
//          Re-entry is by owner identity: the workload re-enters with the same
//          owner id it acquired with (docs/recipes/redis-reentrant-hash.md).
// release: in Lua: not-owner unless the owner's field exists; HINCRBY -1; at
//          0 DEL the key (ok), above 0 keep it (ok; PEXPIRE ttl when the
//          request carries one, as Redisson's unlock does).
// renew:   PEXPIRE key ttl if the owner's field exists (Redisson's watchdog).
// Promise: as set-nx-px, with re-entry by the holder; a holder paused past
// its TTL loses the lock like any lease.
#pragma once

#include <chrono>
#include <string>

#include "recipes/lock_client.hpp"
#include "recipes/recipe_descriptor.hpp"
#include "recipes/redis_connection.hpp"

namespace lockcheck {

class RedisReentrantHash : public LockClient {
public:
    RedisReentrantHash(const std::string& endpoint, const ConnectionOptions& connection);
    LockResult acquire(const LockRequest& request) override;
    LockResult release(const LockRequest& request) override;
    LockResult renew(const LockRequest& request) override;

private:
    RedisConnection connection_;
};

/// The descriptor of this recipe (recipes/redis_reentrant_hash_descriptor.cpp).
RecipeDescriptor redis_reentrant_hash_recipe();

}  // namespace lockcheck
