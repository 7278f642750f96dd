#include "recipes/mysql_get_lock.hpp"

namespace lockcheck {

RecipeDescriptor mysql_get_lock_recipe() {
    return {.name = "mysql-get-lock",
            .description =
                "GET_LOCK(key, 0) / RELEASE_LOCK(key) on the worker's MariaDB session (no lease, not "
                "replicated)",
            .topologies = {"mysql-single", "mysql-replicated"},
            .make = construct_client<MysqlGetLock>};
}

}  // namespace lockcheck
