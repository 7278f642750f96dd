// The directory-handle operations of the lose-unsynced filesystem: opendir,
// readdir and releasedir pass through to the backing directory; fsyncdir
// makes the directory's changes durable in the DurabilityModel (the rule that
// commits the namespace journal, docs/nemesis.md).
#pragma once

#include "unsyncedfs/fuse_handlers.hpp"

namespace lockcheck::unsyncedfs {

/// The FilesystemContext a request's session carries.
inline FilesystemContext& context(fuse_req_t req) { return *static_cast<FilesystemContext*>(fuse_req_userdata(req)); }

/// Answers `req` with `error` (0: success), for operations that return nothing else.
inline void reply_error(fuse_req_t req, int error) { fuse_reply_err(req, error); }

/// Sets opendir, readdir, releasedir and fsyncdir in `ops`.
void add_directory_handle_operations(fuse_lowlevel_ops& ops);

}  // namespace lockcheck::unsyncedfs
