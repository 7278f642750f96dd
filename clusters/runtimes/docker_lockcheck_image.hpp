// The image of lockcheck itself, lockcheck/lockcheck:<version>: a suite in a
// privileged container (`docker run --privileged lockcheck/lockcheck:0.1.0
// suite quick`, docs/ci.md). Built offline from this host, like
// kHostServersImage (clusters/runtimes/docker_host_image.hpp, whose skeleton it
// shares): the files of the Debian packages a run needs (the servers and tools
// the .deb depends on, and everything they depend on: clusters/runtimes/debian_packages.hpp),
// the libraries lockcheck and its helpers link, /etc/alternatives and
// /etc/java-*, and lockcheck laid out as the package installs it
// (/usr/bin/lockcheck, /usr/lib/lockcheck/, /usr/share/lockcheck/scenarios/),
// so it finds its helpers and scenarios there (core/install_layout.hpp).
// Its entrypoint is lockcheck, its working directory /lockcheck (the default
// store is /lockcheck/store).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "host/docker_client.hpp"

namespace lockcheck {

/// What of this lockcheck goes into its image.
struct LockcheckFiles {
    std::filesystem::path binary;                ///< the lockcheck binary
    std::vector<std::filesystem::path> helpers;  ///< go to /usr/lib/lockcheck/
    std::filesystem::path scenarios;             ///< the directory that becomes /usr/share/lockcheck/scenarios
};

/// "lockcheck/lockcheck:<this lockcheck's version>".
std::string lockcheck_image_reference();

/// The Debian packages a run starts programs of (the .deb's Depends:
/// cmake/runtime_packages.cmake), without those lockcheck links.
std::vector<std::string> lockcheck_runtime_packages();

/// Imports lockcheck_image_reference() into the daemon unless it has it
/// already (`rebuild`: removes it and builds it again). Returns true when it
/// was built now. Throws DockerError, or CommandError (a package the image
/// needs is not installed here, tar failed).
bool ensure_lockcheck_image(const DockerClient& docker, const LockcheckFiles& files, bool rebuild);

}  // namespace lockcheck
