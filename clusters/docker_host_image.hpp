// lockcheck's own Docker image (runtime docker without a spec `image`): the
// servers of THIS host, run inside a container. The image itself is tiny and
// built offline: /etc/passwd, /etc/group and /etc/nsswitch.conf of this host,
// an empty /tmp, and this host's merged-/usr links (/bin -> usr/bin, ...).
// The host's /usr (and any of /bin, /sbin, /lib* that are real directories),
// /etc/alternatives and /etc/java-* are bind-mounted read-only into every
// container, so a node runs Debian's server build of this host (the same
// binaries as runtime netns), with the container's own network, PID
// namespace and cgroup (freezer). It does not test another version: a user's
// image (spec `image`, e.g. redis:7.2) does.
#pragma once

#include <string>
#include <vector>

#include "clusters/docker_client.hpp"

namespace lockcheck {

/// The image's reference, "lockcheck/host-servers:1".
inline constexpr const char* kHostServersImage = "lockcheck/host-servers:1";
/// The label every image lockcheck builds carries (`lockcheck images` lists them).
inline constexpr const char* kDockerImageLabel = "lockcheck.image";

/// Imports kHostServersImage into the daemon unless it has it already.
/// Returns true when it was built now. Throws DockerError.
bool ensure_host_servers_image(const DockerClient& docker);

/// The read-only binds ("SRC:DST:ro") that give a container of
/// kHostServersImage this host's servers.
std::vector<std::string> host_servers_binds();

}  // namespace lockcheck
