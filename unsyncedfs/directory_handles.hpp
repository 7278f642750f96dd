// The directory-handle operations of the lose-unsynced filesystem: opendir,
// readdir and releasedir pass through to the backing directory; fsyncdir
// makes the directory's changes durable in the DurabilityModel (the rule that
// commits the namespace journal, docs/nemesis.md).
#pragma once

#include "unsyncedfs/fuse_request.hpp"

namespace lockcheck::unsyncedfs {

/// Sets opendir, readdir, releasedir and fsyncdir in `ops`.
void add_directory_handle_operations(fuse_lowlevel_ops& ops);

}  // namespace lockcheck::unsyncedfs
