#include "core/option_kinds.hpp"
#include "recipes/mysql_for_update.hpp"

namespace lockcheck {

RecipeDescriptor mysql_for_update_recipe() {
    return {.name = "mysql-for-update",
            .description =
                "SELECT ... FOR UPDATE in a transaction, lease = wait_timeout; option resource: inside | "
                "outside",
            .topologies = {"mysql-single", "mysql-replicated"},
            .options = {choice_option("resource",
                                      "inside: the protected counter is read and written in the locking transaction; "
                                      "outside: the controller's register",
                                      "outside", {"inside", "outside"})},
            .make = [](const std::vector<std::string>& endpoints, const ConnectionOptions& connection,
                       const nlohmann::json& options) -> std::unique_ptr<WorkerClient> {
                return std::make_unique<MysqlForUpdate>(endpoints, connection, options.at("resource") == "inside");
            }};
}

}  // namespace lockcheck
