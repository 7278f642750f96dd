#include "recipes/redis_getset_timestamp.hpp"

namespace lockcheck {

RecipeDescriptor redis_getset_timestamp_recipe() {
    return {.name = "redis-getset-timestamp",
            .description = "SETNX with an expiry timestamp as value; GET + GETSET take over expired locks",
            .topologies = {"redis-single"},
            .make = construct_single_server_client<RedisGetsetTimestamp>};
}

}  // namespace lockcheck
