#include "core/capabilities.hpp"
#include "workloads/zk_sequential.hpp"
#include "workloads/zk_recipe_rules.hpp"

namespace lockcheck {

RecipeDescriptor zk_sequential_recipe() {
    return {.name = "zk-sequential",
            .description = "ZooKeeper: EPHEMERAL|SEQUENCE children, lowest holds, each watches its predecessor "
                           "(Curator); czxid as token",
            .topologies = {"zookeeper"},
            .supports = capabilities({capability::kFencing}),
            .options = {zk_session_timeout_option()},
            .make = [](const std::vector<std::string>& endpoints, const ConnectionOptions& connection,
                       const nlohmann::json& options) -> std::unique_ptr<WorkerClient> {
                return std::make_unique<ZkSequential>(endpoints, connection.timeout, zk_session_timeout(options));
            },
            .refuses = zk_recipe_refuses};
}

}  // namespace lockcheck
