// `lockcheck images`: builds lockcheck's own Docker image of this host's
// servers when the daemon lacks it (clusters/docker_host_image.hpp) and lists
// the images lockcheck built. Needs a Docker daemon (DOCKER_HOST or
// /var/run/docker.sock); without one: its one error line, exit 255.
#pragma once

namespace lockcheck {

/// Prints one line per image ("lockcheck/host-servers:1 (built now)") and returns exit code 0.
int images_command();

}  // namespace lockcheck
