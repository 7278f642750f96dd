#include "core/capabilities.hpp"
#include "recipes/redis_set_nx_px.hpp"

namespace lockcheck {

RecipeDescriptor redis_set_nx_px_recipe() {
    return {.name = "redis-set-nx-px",
            .description = "SET key owner NX PX ttl; release by compare-and-delete in Lua",
            .topologies = {"redis-single", "redis-sentinel"},
            .supports = capabilities({capability::kFencing}),
            .make = construct_client<RedisSetNxPx>};
}

}  // namespace lockcheck
