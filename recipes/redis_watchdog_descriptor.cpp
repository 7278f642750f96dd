#include "core/capabilities.hpp"
#include "recipes/redis_watchdog.hpp"

namespace lockcheck {

RecipeDescriptor redis_watchdog_recipe() {
    return {.name = "redis-watchdog",
            .description = "SET NX PX plus lease renewal while held (Redisson's watchdog)",
            .topologies = {"redis-single"},
            .supports = capabilities({capability::kFencing, capability::kRenew}),
            .make = construct_single_server_client<RedisWatchdog>};
}

}  // namespace lockcheck
