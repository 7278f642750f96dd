// The daemon's control channel: commands on its stdin, one a line, each
// answered with one line on its stdout (docs/nemesis.md, "The lose-unsynced
// filesystem"):
//
//   power-loss [torn=MODE seed=S]
//              -> "ok power-loss files-restored=N files-torn=T changes-undone=M failures=F"
//              (MODE: none, last-write-prefix or sectors; unsyncedfs/torn_write.hpp)
//   disk-error [fsync=eio|ok] [write=enospc|ok]
//              -> "ok disk-error fsync=... write=..." (unsyncedfs/disk_errors.hpp;
//              what is not named is ok, so "disk-error" alone heals)
//   status     -> "ok status unsynced-files=N pending-changes=M"
//   other      -> "error unknown command '...'"
//
// A pipe rather than a socket or a file in the mount: it needs no path, works
// while every process using the mount is dead, and closes by itself when the
// controller dies (EOF makes the daemon unmount and exit).
#pragma once

#include <string>

#include "unsyncedfs/durability_model.hpp"

namespace lockcheck::unsyncedfs {

/// The reply line to one command line.
std::string answer_command(const std::string& command, DurabilityModel& model);

/// Answers commands from `in_fd` on `out_fd` until EOF on `in_fd`.
void serve_control(int in_fd, int out_fd, DurabilityModel& model);

}  // namespace lockcheck::unsyncedfs
