#include "core/capabilities.hpp"
#include "recipes/mysql_optimistic.hpp"

namespace lockcheck {

RecipeDescriptor mysql_optimistic_recipe() {
    return {.name = "mysql-optimistic",
            .description =
                "version column: UPDATE ... SET owner, version = version + 1 WHERE version = read; the "
                "version as token",
            .topologies = {"mysql-single", "mysql-replicated"},
            .supports = capabilities({capability::kFencing}),
            .make = construct_client<MysqlOptimistic>};
}

}  // namespace lockcheck
