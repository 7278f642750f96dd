// To add a recipe: write recipes/NAME.{hpp,cpp} implementing LockClient
// (or another client family: StockClient, UniqueIdClient) and its descriptor
// in recipes/NAME_descriptor.cpp, then list it here (docs/design.md,
// "Adding a topology, recipe or fault").
#include "recipes/recipe_registry.hpp"

#include "core/find_by_name.hpp"
#include "recipes/etcd_lease_lock.hpp"
#include "recipes/mysql_auto_increment_ids.hpp"
#include "recipes/mysql_for_update.hpp"
#include "recipes/mysql_get_lock.hpp"
#include "recipes/mysql_optimistic.hpp"
#include "recipes/mysql_stock_decrement.hpp"
#include "recipes/mysql_table_record.hpp"
#include "recipes/redis_del_unsafe.hpp"
#include "recipes/redis_getset_timestamp.hpp"
#include "recipes/redis_incr_ids.hpp"
#include "recipes/redis_reentrant_hash.hpp"
#include "recipes/redis_set_nx_px.hpp"
#include "recipes/redis_setnx_expire.hpp"
#include "recipes/redis_watch_multi.hpp"
#include "recipes/redis_watchdog.hpp"
#include "recipes/redlock.hpp"
#include "recipes/snowflake_ids.hpp"
#include "recipes/zk_ephemeral.hpp"
#include "recipes/zk_sequential.hpp"

namespace lockcheck {

const std::vector<RecipeDescriptor>& recipe_descriptors() {
    static const std::vector<RecipeDescriptor> all{
        redis_set_nx_px_recipe(),       redis_setnx_expire_recipe(),
        redis_del_unsafe_recipe(),      redis_getset_timestamp_recipe(),
        redis_reentrant_hash_recipe(),  redis_watchdog_recipe(),
        redis_watch_multi_recipe(),     redlock_recipe(),
        redis_incr_ids_recipe(),        zk_ephemeral_recipe(),
        zk_sequential_recipe(),         etcd_lease_lock_recipe(),
        mysql_table_record_recipe(),    mysql_get_lock_recipe(),
        mysql_optimistic_recipe(),      mysql_for_update_recipe(),
        mysql_stock_decrement_recipe(), mysql_auto_increment_ids_recipe(),
        snowflake_ids_recipe(),         snowflake_ids_guarded_recipe(),
    };
    return all;
}

const RecipeDescriptor* find_recipe(const std::string& name) { return find_by_name(recipe_descriptors(), name); }

}  // namespace lockcheck
