#include "recipes/zk_ephemeral.hpp"
#include "recipes/zk_recipe_descriptor.hpp"

namespace lockcheck {

RecipeDescriptor zk_ephemeral_recipe() {
    return zk_recipe<ZkEphemeral>(
        "zk-ephemeral", "ZooKeeper: one EPHEMERAL node per lock plus a watch; session = lease; czxid as token");
}

}  // namespace lockcheck
