#include "harness/images_command.hpp"

#include <cstdio>

#include "clusters/docker_host_image.hpp"
#include "harness/exit_codes.hpp"

namespace lockcheck {

int images_command() {
    const DockerClient docker;
    try {
        docker.ping();
        const bool built = ensure_host_servers_image(docker);
        for (const auto& image : docker.images_labelled(kDockerImageLabel))
            std::printf("%s%s\n", image.c_str(), built && image == kHostServersImage ? " (built now)" : "");
    } catch (const DockerError& e) {
        throw HarnessError(e.what());
    }
    return exit_code::kValid;
}

}  // namespace lockcheck
