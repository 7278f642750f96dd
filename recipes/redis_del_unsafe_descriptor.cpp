#include "core/capabilities.hpp"
#include "recipes/redis_del_unsafe.hpp"

namespace lockcheck {

RecipeDescriptor redis_del_unsafe_recipe() {
    return {.name = "redis-del-unsafe",
            .description = "SET key owner NX PX ttl; release by plain DEL without checking the owner",
            .topologies = {"redis-single"},
            .supports = capabilities({capability::kFencing}),
            .make = construct_single_server_client<RedisDelUnsafe>};
}

}  // namespace lockcheck
