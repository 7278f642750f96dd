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

#include <filesystem>
#include <string>
#include <vector>

#include "host/docker_client.hpp"

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

/// The host's directories of /etc the servers read at run time:
/// /etc/alternatives and /etc/java-* (the JVM's conf links there).
std::vector<std::filesystem::path> host_server_etc_dirs();

/// Writes the skeleton of an image of this host into `root` (which must
/// exist): /etc/passwd, /etc/group and /etc/nsswitch.conf of this host, an
/// empty /tmp and this host's merged-/usr links (/bin -> usr/bin, ...).
void write_image_skeleton(const std::filesystem::path& root);

/// Imports the tree `root` as image `repository`:`tag`, labelled
/// kDockerImageLabel=`kind`, with `host_paths` (absolute paths of this host,
/// each archived as is, without what lies below a directory; those `root`
/// has already, and repeated ones, left out) added to it and
/// `changes` (Dockerfile instructions: ENTRYPOINT, WORKDIR, ...) applied.
/// Throws DockerError, or CommandError when tar fails.
void import_image_tree(const DockerClient& docker, const std::filesystem::path& root,
                       const std::vector<std::filesystem::path>& host_paths, const std::string& repository,
                       const std::string& tag, const std::string& kind, const std::vector<std::string>& changes = {});

/// A scratch directory under the temp directory, removed with everything in it when destroyed.
class ImageScratch {
public:
    explicit ImageScratch(const std::string& name);
    ~ImageScratch();
    ImageScratch(const ImageScratch&) = delete;
    ImageScratch& operator=(const ImageScratch&) = delete;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

}  // namespace lockcheck
