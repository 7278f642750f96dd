#include "core/capabilities.hpp"
#include "recipes/mysql_auto_increment_ids.hpp"

namespace lockcheck {

RecipeDescriptor mysql_auto_increment_ids_recipe() {
    return {.name = "mysql-auto-increment-ids",
            .description =
                "not a lock: ids from INSERT INTO ids (k) VALUES (?), id = LAST_INSERT_ID(); checked for "
                "duplicates",
            .topologies = {"mysql-single", "mysql-replicated"},
            .supports = capabilities({capability::kUniqueIds}),
            .make = construct_client<MysqlAutoIncrementIds>};
}

}  // namespace lockcheck
