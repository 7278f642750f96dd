// The open-file operations of the lose-unsynced filesystem: open, read,
// write, flush, release, fsync, fallocate and lseek on a backing descriptor
// of the file. Writes, truncations and fsyncs go through the
// DurabilityModel, which decides what a power loss keeps.
#pragma once

#include "unsyncedfs/fuse_request.hpp"

namespace lockcheck::unsyncedfs {

/// An open file: the backing descriptor and its inode. fuse_file_info::fh points at one.
struct OpenFile {
    int fd;
    Inode* inode;
};

/// The OpenFile of a request's file handle.
OpenFile& open_file(const fuse_file_info* fi);

/// Flags for the backing descriptor: readable (FileUndo reads what a write
/// overwrites), without O_APPEND (the kernel passes the offset), O_DIRECT
/// (the kernel aligns for the mount, not for the backing filesystem) and
/// the flags open() has already acted on. O_SYNC/O_DSYNC stay, so the backing
/// write costs what the caller asked for.
int backing_flags(int flags);

/// Hands the kernel an open file for `fd` (with `created`'s entry for a
/// create, nullptr for an open); closes `fd` when the reply fails.
void reply_open_file(fuse_req_t req, Inode& inode, int fd, fuse_file_info* fi, const fuse_entry_param* created);

/// Sets open, read, write, flush, release, fsync, fallocate and lseek in `ops`.
void add_file_handle_operations(fuse_lowlevel_ops& ops);

}  // namespace lockcheck::unsyncedfs
