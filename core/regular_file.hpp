// Whether a path names a file whose bytes can be read as data: a regular
// file, after following links. Anything else would read wrong or never end:
// a directory reads as empty, a FIFO blocks the open until a writer comes,
// /dev/zero never ends. Readers of user-given files (histories, results.json,
// specs, hosts files) ask before they open.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace lockcheck {

/// nullopt when `path` is a regular file (links followed); else what it is
/// instead, in a few words for a message: "does not exist", "is a directory,
/// not a regular file", "is a FIFO, not a regular file", ...
std::optional<std::string> not_a_regular_file(const std::filesystem::path& path);

}  // namespace lockcheck
