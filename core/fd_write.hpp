// Writing a whole buffer to a file descriptor, across short writes and signals.
#pragma once

#include <string_view>

namespace lockcheck {

/// Writes all of `bytes` to `fd`, going on after a short write and retrying
/// on EINTR. Returns false on the first failure, with errno telling why (EIO
/// for a write that wrote nothing).
bool write_all(int fd, std::string_view bytes);

}  // namespace lockcheck
