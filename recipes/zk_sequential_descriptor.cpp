#include "recipes/zk_recipe_descriptor.hpp"
#include "recipes/zk_sequential.hpp"

namespace lockcheck {

RecipeDescriptor zk_sequential_recipe() {
    return zk_recipe<ZkSequential>("zk-sequential",
                                   "ZooKeeper: EPHEMERAL|SEQUENCE children, lowest holds, each watches its predecessor "
                                   "(Curator); czxid as token");
}

}  // namespace lockcheck
