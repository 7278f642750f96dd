#include "core/option_kinds.hpp"
#include "recipes/mysql_table_record.hpp"

namespace lockcheck {

RecipeDescriptor mysql_table_record_recipe() {
    return {.name = "mysql-table-record",
            .description =
                "INSERT a row keyed by the lock, DELETE it to release; option cleanup: expire rows older "
                "than ttl",
            .topologies = {"mysql-single", "mysql-replicated"},
            .options = {boolean_option("cleanup",
                                       "each acquire first deletes the key's record when it is older than ttl_ms by "
                                       "the server's clock (a lease; without it the lock has none)",
                                       false)},
            .make = [](const std::vector<std::string>& endpoints, const ConnectionOptions& connection,
                       const nlohmann::json& options) -> std::unique_ptr<WorkerClient> {
                return std::make_unique<MysqlTableRecord>(endpoints, connection, options.at("cleanup").get<bool>());
            }};
}

}  // namespace lockcheck
