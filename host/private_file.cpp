#include "host/private_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "core/fd_write.hpp"

namespace lockcheck {

void write_private_file(const std::filesystem::path& path, std::string_view text) {
    const auto fail = [&](const char* what) {
        return std::runtime_error(std::string("cannot ") + what + " " + path.string() + ": " + std::strerror(errno));
    };
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) throw fail("create");
    const bool ok = ::fchmod(fd, 0600) == 0 && write_all(fd, text);
    const int saved = errno;
    ::close(fd);
    errno = saved;
    if (!ok) throw fail("write");
}

}  // namespace lockcheck
