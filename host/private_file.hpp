// Files only the run's user may read: node configs that hold a password.
#pragma once

#include <filesystem>
#include <string_view>

namespace lockcheck {

/// Writes `text` to `path` with mode 0600 (also when the file existed with
/// another mode), never through a symlink (O_NOFOLLOW). Throws
/// std::runtime_error naming the file.
void write_private_file(const std::filesystem::path& path, std::string_view text);

}  // namespace lockcheck
