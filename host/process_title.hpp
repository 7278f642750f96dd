// What `ps` shows for this process: its command line, /proc/self/cmdline,
// which is the memory of main's argv strings. A worker forked from the fork
// server (host/fork_server.hpp) inherits the server's command line, so it
// names itself instead (e.g. `lockcheck worker (forked) --run-id ID`).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace lockcheck {

/// The command line of this process, found once (in /proc/self/stat), so
/// that a process forked afterwards can rewrite its own copy of it without
/// reading /proc again: the fork server finds it before it serves, and each
/// worker forked from it renames itself with it.
class ProcessTitle {
public:
    /// The command line when `argv` is main's own argv (its first string is
    /// where the kernel put the command line: /proc/self/stat's arg_start);
    /// else (an argv made up by a caller, a test) or when /proc cannot be
    /// read, none, and set() writes nothing.
    explicit ProcessTitle(const char* const* argv);

    /// Rewrites the command line as `words` (separated as arguments are), in
    /// place: cut to the length of the original command line, the rest of it
    /// cleared. False when there is none to rewrite. Call it before other
    /// threads read argv.
    bool set(const std::vector<std::string>& words) const;

private:
    char* area_ = nullptr;  ///< main's argv[0], the start of the command line
    std::size_t size_ = 0;  ///< the command line's bytes, the last NUL included
};

}  // namespace lockcheck
