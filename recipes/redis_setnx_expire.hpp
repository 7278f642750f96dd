// Recipe "redis-setnx-expire": SETNX key owner, then PEXPIRE key ttl as a
// second command - the pre-2.6.12 idiom, before SET had NX and PX.
//
// acquire: SETNX; on 1, wait `expire_gap` (spec recipe_options.expire_gap_ms,
//          default 300 ms; a stand-in for whatever a real
//          client does between two round trips: a GC, a context switch, a
//          slow network), then PEXPIRE. A client that dies in between leaves
//          a lock with no TTL that nobody can ever take again. A PEXPIRE whose
//          outcome is unknown makes the acquire info. No fencing token.
// release: compare-and-delete in Lua, as redis-set-nx-px.
// Promise: as set-nx-px while clients never die between the two commands
// (docs/recipes/redis-setnx-expire.md).
#pragma once

#include <chrono>

#include "recipes/recipe_descriptor.hpp"
#include "recipes/redis_set_nx_px.hpp"

namespace lockcheck {

class RedisSetNxExpire : public RedisSetNxPx {
public:
    /// The gap the recipe leaves between SETNX and PEXPIRE by default.
    static constexpr std::chrono::milliseconds kDefaultExpireGap{300};

    RedisSetNxExpire(const std::string& endpoint, const ConnectionOptions& connection,
                     std::chrono::milliseconds expire_gap = kDefaultExpireGap)
        : RedisSetNxPx(endpoint, connection), expire_gap_(expire_gap) {}
    LockResult acquire(const LockRequest& request) override;

private:
    std::chrono::milliseconds expire_gap_;
};

/// The descriptor of this recipe (recipes/redis_setnx_expire_descriptor.cpp).
RecipeDescriptor redis_setnx_expire_recipe();

}  // namespace lockcheck
