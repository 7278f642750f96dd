// Recipe "redis-watchdog": redis-set-nx-px plus lease renewal while the lock
// is held, as Redisson's lock watchdog does.
//
// renew:   in Lua, PEXPIRE key ttl if the key still holds the caller's owner
//          value (ok), else fail not-owner (the lease had already run out).
// The renewal runs inside the worker process: the controller sends `renew`
// requests every ttl/3 during a long hold (docs/decisions.md, "Watchdog
// renewals go through the worker"), so a paused worker renews nothing.
// Promise: holds may outlast the TTL as long as the holder keeps running.
// A pause of the whole client (GC, SIGSTOP) stops the renewals too, and the
// lease expires under it (docs/recipes/redis-watchdog.md).
#pragma once

#include "recipes/recipe_descriptor.hpp"
#include "recipes/redis_set_nx_px.hpp"

namespace lockcheck {

class RedisWatchdog : public RedisSetNxPx {
public:
    using RedisSetNxPx::RedisSetNxPx;
    LockResult renew(const LockRequest& request) override;
};

/// The descriptor of this recipe (recipes/redis_watchdog_descriptor.cpp).
RecipeDescriptor redis_watchdog_recipe();

}  // namespace lockcheck
