#include "unsyncedfs/availability.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/install_layout.hpp"

namespace lockcheck {

std::filesystem::path find_unsyncedfs_daemon(const std::filesystem::path& executable) {
    return find_helper(executable, "lockcheck-unsyncedfs");
}

std::optional<std::string> unsyncedfs_unavailable_reason(const std::filesystem::path& daemon) {
    if (::geteuid() != 0) return "it needs root (its daemon mounts with allow_other for the servers)";
    struct stat st {};
    if (::stat("/dev/fuse", &st) != 0 || !S_ISCHR(st.st_mode))
        return "/dev/fuse is missing (load the fuse module; a container needs --device /dev/fuse)";
    const int fd = ::open("/dev/fuse", O_RDWR | O_CLOEXEC);
    if (fd < 0) return std::string("/dev/fuse cannot be opened: ") + std::strerror(errno);
    ::close(fd);
    if (daemon.empty() || ::access(daemon.c_str(), X_OK) != 0)
        return "its daemon lockcheck-unsyncedfs is missing" +
               (daemon.empty() ? std::string() : " at " + daemon.string());
    return std::nullopt;
}

}  // namespace lockcheck
