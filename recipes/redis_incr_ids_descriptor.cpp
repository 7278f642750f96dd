#include "core/capabilities.hpp"
#include "recipes/redis_incr_ids.hpp"

namespace lockcheck {

RecipeDescriptor redis_incr_ids_recipe() {
    return {.name = "redis-incr-ids",
            .description = "not a lock: ids from INCR key:ids on the primary, checked for duplicates",
            .topologies = {"redis-single", "redis-sentinel"},
            .supports = capabilities({capability::kUniqueIds}),
            .make = construct_client<RedisIncrIds>};
}

}  // namespace lockcheck
