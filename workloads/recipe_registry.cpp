// To add a recipe: write workloads/NAME.{hpp,cpp} implementing LockClient
// (or another client family: StockClient, UniqueIdClient) and its descriptor
// in workloads/NAME_descriptor.cpp, then list it here (docs/design.md,
// "Adding a topology, recipe or fault").
#include "workloads/recipe_registry.hpp"

#include "core/find_by_name.hpp"
#include "workloads/etcd_lease_lock.hpp"
#include "workloads/mysql_auto_increment_ids.hpp"
#include "workloads/mysql_for_update.hpp"
#include "workloads/mysql_get_lock.hpp"
#include "workloads/mysql_optimistic.hpp"
#include "workloads/mysql_stock_decrement.hpp"
#include "workloads/mysql_table_record.hpp"
#include "workloads/redis_del_unsafe.hpp"
#include "workloads/redis_getset_timestamp.hpp"
#include "workloads/redis_incr_ids.hpp"
#include "workloads/redis_reentrant_hash.hpp"
#include "workloads/redis_set_nx_px.hpp"
#include "workloads/redis_setnx_expire.hpp"
#include "workloads/redis_watch_multi.hpp"
#include "workloads/redis_watchdog.hpp"
#include "workloads/redlock.hpp"
#include "workloads/snowflake_ids.hpp"
#include "workloads/zk_ephemeral.hpp"
#include "workloads/zk_sequential.hpp"

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
