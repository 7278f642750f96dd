// What `ps` shows for this process: its command line, /proc/self/cmdline,
// which is the memory of main's argv strings. A worker forked from the fork
// server (clusters/fork_server.hpp) inherits the server's command line, so it
// names itself instead (e.g. `lockcheck worker (forked) --run-id ID`).
#pragma once

#include <string>
#include <vector>

namespace lockcheck {

/// Rewrites this process's command line as `words` (separated as arguments
/// are), in place: cut to the length of the original command line, the rest
/// of it cleared. Only when `argv` is main's own argv (its first string is
/// where the kernel put the command line: /proc/self/stat's arg_start), so
/// an argv made up by a caller (a test) is never written to; false then, and
/// when /proc cannot be read. Call it before other threads read argv.
bool set_process_title(const char* const* argv, const std::vector<std::string>& words);

}  // namespace lockcheck
