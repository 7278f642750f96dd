#include "core/capabilities.hpp"
#include "workloads/zk_ephemeral.hpp"
#include "workloads/zk_recipe_rules.hpp"

namespace lockcheck {

RecipeDescriptor zk_ephemeral_recipe() {
    return {.name = "zk-ephemeral",
            .description = "ZooKeeper: one EPHEMERAL node per lock plus a watch; session = lease; czxid as token",
            .topologies = {"zookeeper"},
            .supports = capabilities({capability::kFencing}),
            .options = {zk_session_timeout_option()},
            .make = [](const std::vector<std::string>& endpoints, const ConnectionOptions& connection,
                       const nlohmann::json& options) -> std::unique_ptr<WorkerClient> {
                return std::make_unique<ZkEphemeral>(endpoints, connection.timeout, zk_session_timeout(options));
            },
            .refuses = zk_recipe_refuses};
}

}  // namespace lockcheck
