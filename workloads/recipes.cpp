#include "workloads/recipes.hpp"

#include <stdexcept>

#include "workloads/redis_set_nx_px.hpp"

namespace lockcheck {

const std::vector<RecipeInfo>& recipes() {
    static const std::vector<RecipeInfo> all{
        {"redis-set-nx-px", "SET key owner NX PX ttl; release by compare-and-delete in Lua", {"redis-single"}},
    };
    return all;
}

const RecipeInfo* find_recipe(const std::string& name) {
    for (const auto& r : recipes())
        if (r.name == name) return &r;
    return nullptr;
}

std::unique_ptr<LockClient> make_lock_client(const std::string& recipe, const std::vector<std::string>& endpoints,
                                             std::chrono::milliseconds timeout) {
    if (endpoints.empty()) throw std::invalid_argument("recipe '" + recipe + "' needs at least one endpoint");
    if (recipe == "redis-set-nx-px") return std::make_unique<RedisSetNxPx>(endpoints.front(), timeout);
    throw std::invalid_argument("unknown recipe '" + recipe + "'");
}

}  // namespace lockcheck
