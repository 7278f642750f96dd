#include "core/capabilities.hpp"
#include "recipes/redis_reentrant_hash.hpp"

namespace lockcheck {

RecipeDescriptor redis_reentrant_hash_recipe() {
    return {.name = "redis-reentrant-hash",
            .description = "Redisson's re-entrant hash lock: HINCRBY per owner + PEXPIRE in Lua",
            .topologies = {"redis-single"},
            .supports = capabilities({capability::kFencing, capability::kReentrant}),
            .make = construct_single_server_client<RedisReentrantHash>};
}

}  // namespace lockcheck
