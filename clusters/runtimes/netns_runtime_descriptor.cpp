#include "clusters/runtimes/netns_runtime.hpp"
#include "clusters/runtimes/node_runtime_registry.hpp"

namespace lockcheck {

NodeRuntimeDescriptor netns_runtime() {
    return {.name = "netns",
            .description =
                "the default: the servers of this host, one process per node, in the node's network "
                "namespace when the run has them",
            .make = [](const NodePlacement& placement) { return std::make_unique<NetnsRuntime>(placement); },
            .network = std::nullopt,  // the run's
            .refuses_unsynced_data = "",
            .unavailable = nullptr};
}

}  // namespace lockcheck
