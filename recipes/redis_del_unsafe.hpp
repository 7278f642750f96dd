// Recipe "redis-del-unsafe": SET key owner NX PX ttl, released by a plain
// DEL that never checks who holds the lock.
//
// acquire: as redis-set-nx-px (with its fencing counter).
// release: GETDEL key - exactly a plain DEL, but it also returns the value it
//          removed, so the history can show whose lock a release deleted:
//          ok with value {"removed_owner": "<owner>"} when it removed a lock
//          (possibly someone else's), fail not-owner when there was none.
// Promise: as set-nx-px while every holder releases within its TTL. A holder
// paused past its TTL deletes the lock of the client that took it over,
// letting a third client in (docs/recipes/redis-del-unsafe.md).
#pragma once

#include "recipes/recipe_descriptor.hpp"
#include "recipes/redis_set_nx_px.hpp"

namespace lockcheck {

class RedisDelUnsafe : public RedisSetNxPx {
public:
    using RedisSetNxPx::RedisSetNxPx;
    LockResult release(const LockRequest& request) override;
};

/// The descriptor of this recipe (recipes/redis_del_unsafe_descriptor.cpp).
RecipeDescriptor redis_del_unsafe_recipe();

}  // namespace lockcheck
