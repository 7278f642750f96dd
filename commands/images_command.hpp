// `lockcheck images`: builds lockcheck's own Docker images when the daemon
// lacks them and lists the images lockcheck built: the image of this host's
// servers for runtime docker (clusters/runtimes/docker_host_image.hpp) and the image
// of lockcheck itself, which runs a suite in a privileged container
// (clusters/runtimes/docker_lockcheck_image.hpp, docs/ci.md). Needs a Docker daemon
// (DOCKER_HOST or /var/run/docker.sock); without one: its one error line,
// exit 255.
#pragma once

#include <filesystem>
#include "commands/subcommand.hpp"

namespace lockcheck {

/// Prints one line per image ("lockcheck/host-servers:1 (built now)") and
/// returns exit code 0. `rebuild`: the image of lockcheck is removed and
/// built again from `self_exe` (this binary), its helpers and scenarios.
int images_command(const std::filesystem::path& self_exe, bool rebuild);

/// Adds `images` and its flags to the command line (commands/subcommand.hpp).
void register_images(CommandLine& line);

}  // namespace lockcheck
