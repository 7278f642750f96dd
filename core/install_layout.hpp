// Where lockcheck's helpers and data are, relative to its own binary, in the
// two layouts it runs from:
//   - a build directory: build/lockcheck with its helpers (lockcheck-unsyncedfs,
//     libclockshift.so) beside it, and scenarios/ in the source tree;
//   - an installed package (`cpack -G DEB`, docs/ci.md): <prefix>/bin/lockcheck,
//     its helpers in <prefix>/lib/lockcheck/, its scenarios and docs in
//     <prefix>/share/lockcheck/.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace lockcheck {

/// The helpers lockcheck runs beside its binary: the lose-unsynced
/// filesystem's daemon and the clock library (the package and the image of
/// lockcheck hold both).
inline constexpr const char* kHelperNames[] = {"lockcheck-unsyncedfs", "libclockshift.so"};

/// Where the helper `name` of the binary `executable` is looked for, in
/// order: the binary's directory (a build directory), then
/// <binary's directory>/../lib/lockcheck (an installed package).
std::vector<std::filesystem::path> helper_candidates(const std::filesystem::path& executable, const std::string& name);

/// The first helper_candidates() entry that exists; empty when none does.
std::filesystem::path find_helper(const std::filesystem::path& executable, const std::string& name);

/// <binary's directory>/../share/lockcheck: the data directory of an
/// installed package (scenarios/, docs/). It need not exist.
std::filesystem::path installed_data_dir(const std::filesystem::path& executable);

}  // namespace lockcheck
