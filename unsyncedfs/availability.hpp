// Whether the lose-unsynced filesystem can run on this machine, and where
// its daemon is. A run that asks for it refuses to start with the reason
// (exit 254) rather than failing half-way.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace lockcheck {

/// `lockcheck-unsyncedfs` in the directory of `executable` (the build puts it
/// beside `lockcheck`) or in ../lib/lockcheck/ (an installed package;
/// find_helper); empty when it is not there.
std::filesystem::path find_unsyncedfs_daemon(const std::filesystem::path& executable);

/// Why the filesystem cannot be mounted here (not root, no /dev/fuse, no
/// daemon), as the end of a sentence; nullopt when it can.
std::optional<std::string> unsyncedfs_unavailable_reason(const std::filesystem::path& daemon);

}  // namespace lockcheck
