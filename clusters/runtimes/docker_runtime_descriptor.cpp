#include "clusters/runtimes/docker_runtime.hpp"
#include "clusters/runtimes/node_runtime_registry.hpp"

namespace lockcheck {

NodeRuntimeDescriptor docker_runtime() {
    return {.name = "docker",
            .description =
                "one container per node on a Docker bridge network of the run (spec `image`, default "
                "lockcheck's image of this host's servers); the daemon at DOCKER_HOST or /var/run/docker.sock",
            .make = [](const NodePlacement& placement) { return std::make_unique<DockerRuntime>(placement); },
            .network = NetworkMode::Docker,
            .refuses_unsynced_data =
                "the lose-unsynced filesystem is mounted on this host after the container has bind-mounted the node's "
                "directory, so the server would never write to it",
            .unavailable = []() -> std::optional<std::string> {
                try {
                    DockerClient().ping();
                    return std::nullopt;
                } catch (const DockerError& e) {
                    return e.what();
                }
            }};
}

}  // namespace lockcheck
