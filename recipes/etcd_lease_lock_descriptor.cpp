#include "core/capabilities.hpp"
#include "recipes/etcd_lease_lock.hpp"

namespace lockcheck {

RecipeDescriptor etcd_lease_lock_recipe() {
    return {.name = "etcd-lease-lock",
            .description = "etcd lease + txn on create_revision == 0, kept alive while held; revision as token",
            .topologies = {"etcd"},
            .supports = capabilities({capability::kFencing, capability::kRenew}),
            .make = [](const std::vector<std::string>& endpoints, const ConnectionOptions& connection,
                       const nlohmann::json&) -> std::unique_ptr<WorkerClient> {
                return std::make_unique<EtcdLeaseLock>(endpoints, connection.timeout);
            }};
}

}  // namespace lockcheck
