// Where lockcheck keeps the locks that tell live runs from dead ones (subnet
// slots, run liveness) and what `clean` needs to find a dead run's leftovers.
//
// It is private to the user: created with mode 0700, and an existing one is
// used only when it is a real directory (not a symbolic link) owned by the
// user that nobody else may write to. Otherwise another user could create it
// first (in /tmp) and take every subnet slot, or plant links in it.
#pragma once

#include <filesystem>
#include <stdexcept>

namespace lockcheck {

class StateDirectoryError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// /run/lockcheck for root, else $TMPDIR/lockcheck-<euid>
/// (TMPDIR defaulting to /tmp), made private with private_directory().
/// Throws StateDirectoryError naming the directory and why it is refused.
std::filesystem::path state_directory();

/// Creates `dir` with mode 0700 (its parent must exist), or checks the one
/// there: it must be a directory, not a symbolic link, owned by the effective
/// user, and not writable by group or others (read bits are taken away).
/// Returns `dir`; throws StateDirectoryError otherwise.
std::filesystem::path private_directory(const std::filesystem::path& dir);

}  // namespace lockcheck
