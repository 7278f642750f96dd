// The libfuse3 low-level operations of the lose-unsynced filesystem: a
// passthrough to the backing directory (in the manner of libfuse's
// passthrough_ll example) whose writes, truncations and directory changes go
// through the DurabilityModel. The session's user data is a
// FilesystemContext. Writeback caching stays off, so every write reaches the
// daemon before write(2) returns; the kernel may cache entries, attributes and
// pages for `cache_timeout` seconds because nothing else changes the backing
// directory while it is mounted.
#pragma once

#define FUSE_USE_VERSION 314
#include <fuse_lowlevel.h>

#include "unsyncedfs/durability_model.hpp"
#include "unsyncedfs/inode_table.hpp"

namespace lockcheck::unsyncedfs {

struct FilesystemContext {
    InodeTable& table;
    DurabilityModel& model;
    double cache_timeout = 60.0;
};

/// The operations table for fuse_session_new().
const fuse_lowlevel_ops& filesystem_operations();

}  // namespace lockcheck::unsyncedfs
