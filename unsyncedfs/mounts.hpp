// The lose-unsynced filesystem's mounts in the kernel's mount table: how a
// run names them, how to find them in /proc/self/mounts and how to take them
// down. A mount's fsname carries the run id ("lockcheck:<run id>:<node>"),
// so `lockcheck clean` finds what a dead run left mounted without knowing
// where its run directory was. Unmounting calls umount2(2) directly (the
// daemon runs as root; fusermount3 would do the same): it never looks inside
// the mount, so a dead or hung daemon cannot block it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace lockcheck {

/// The filesystem type the daemon's mounts have ("fuse." + its subtype).
inline constexpr const char* kUnsyncedFsType = "fuse.lockcheck-unsyncedfs";

/// The fsname of the mount over a node's data directory in run `run_id`.
std::string unsyncedfs_fsname(const std::string& run_id, const std::string& node);

struct MountEntry {
    std::string fsname;
    std::filesystem::path path;
    std::string type;
};

/// The current mount table (/proc/self/mounts, escapes decoded).
std::vector<MountEntry> read_mount_table();

/// `path` as the mount table spells it: absolute, its parent's symlinks
/// resolved. Never looks at `path` itself (a hung mount would block that).
std::filesystem::path mount_table_path(const std::filesystem::path& path);

/// True when something is mounted at `path`.
bool is_mount_point(const std::filesystem::path& path);

/// Unmounts `path`, lazily (MNT_DETACH) when it is busy. Returns 0 or the
/// errno of the failure (EINVAL: nothing mounted there).
int unmount_path(const std::filesystem::path& path);

/// Unmounts every lose-unsynced filesystem of run `run_id`. Never throws.
/// Returns "mount PATH" for each one it unmounted.
std::vector<std::string> unmount_run_filesystems(const std::string& run_id) noexcept;

}  // namespace lockcheck
