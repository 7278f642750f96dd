// What every FUSE operation of the lose-unsynced filesystem needs from its
// request: the session's FilesystemContext, a plain error reply, and the
// /proc path that reopens a backing O_PATH descriptor.
#pragma once

#include <string>

#include "unsyncedfs/fuse_handlers.hpp"

namespace lockcheck::unsyncedfs {

/// The FilesystemContext a request's session carries.
inline FilesystemContext& context(fuse_req_t req) { return *static_cast<FilesystemContext*>(fuse_req_userdata(req)); }

/// Answers `req` with `error` (0: success), for operations that return nothing else.
inline void reply_error(fuse_req_t req, int error) { fuse_reply_err(req, error); }

/// "/proc/self/fd/N" for an O_PATH descriptor, to reopen or chmod what it names.
inline std::string proc_path(int fd) { return "/proc/self/fd/" + std::to_string(fd); }

}  // namespace lockcheck::unsyncedfs
