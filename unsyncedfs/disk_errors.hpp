// Disk errors the lose-unsynced filesystem answers with while they are set
// (docs/nemesis.md, "Disk errors"): EIO for every fsync and fdatasync of a
// file, whose unsynced writes are then dropped as Linux drops the pages of a
// failed writeback, and ENOSPC for every write, as from a full disk. Set and
// healed through the control channel: "disk-error fsync=eio|ok write=enospc|ok".
#pragma once

#include <optional>
#include <string>

namespace lockcheck::unsyncedfs {

struct DiskErrors {
    int fsync_errno = 0;  ///< 0 or EIO: what a file's fsync/fdatasync answers
    int write_errno = 0;  ///< 0 or ENOSPC: what a write answers (writing nothing)
};

/// The errors the words after "disk-error" name ("fsync=eio write=ok", in
/// any order, each at most once, missing ones ok), or nullopt when they do
/// not read.
std::optional<DiskErrors> disk_errors_from_arguments(const std::string& arguments);
/// "fsync=eio|ok write=enospc|ok", which disk_errors_from_arguments reads back.
std::string disk_errors_arguments(const DiskErrors& errors);

}  // namespace lockcheck::unsyncedfs
