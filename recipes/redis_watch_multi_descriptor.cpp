#include "core/capabilities.hpp"
#include "recipes/redis_watch_multi.hpp"

namespace lockcheck {

RecipeDescriptor redis_watch_multi_recipe() {
    return {.name = "redis-watch-multi",
            .description = "lock key taken by a WATCH/MULTI/EXEC optimistic transaction",
            .topologies = {"redis-single"},
            .supports = capabilities({capability::kFencing}),
            .make = construct_single_server_client<RedisWatchMulti>};
}

}  // namespace lockcheck
