#include "host/state_directory.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace lockcheck {
namespace {

constexpr mode_t kPrivate = 0700;

[[noreturn]] void refuse(const std::filesystem::path& dir, const std::string& why) {
    throw StateDirectoryError("state directory " + dir.string() + " " + why +
                              "; refusing to use it (remove it, or set TMPDIR to a directory of your own)");
}

/// Closes a descriptor when it goes out of scope.
struct Descriptor {
    int fd;
    ~Descriptor() {
        if (fd >= 0) ::close(fd);
    }
};

}  // namespace

std::filesystem::path private_directory(const std::filesystem::path& dir) {
    if (::mkdir(dir.c_str(), kPrivate) != 0 && errno != EEXIST)
        throw StateDirectoryError("cannot create state directory " + dir.string() + ": " + std::strerror(errno));
    // Judge what the name refers to through one descriptor: no symlink is followed.
    const Descriptor opened{::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)};
    if (opened.fd < 0) {
        const int open_error = errno;
        struct stat entry {};
        if (::lstat(dir.c_str(), &entry) == 0 && S_ISLNK(entry.st_mode)) refuse(dir, "is a symbolic link");
        if (::lstat(dir.c_str(), &entry) == 0 && !S_ISDIR(entry.st_mode)) refuse(dir, "is not a directory");
        throw StateDirectoryError("cannot open state directory " + dir.string() + ": " + std::strerror(open_error));
    }
    struct stat st {};
    if (::fstat(opened.fd, &st) != 0)
        throw StateDirectoryError("cannot inspect state directory " + dir.string() + ": " + std::strerror(errno));
    if (st.st_uid != ::geteuid())
        refuse(dir, "is owned by uid " + std::to_string(st.st_uid) + ", not by you (uid " +
                        std::to_string(::geteuid()) + ")");
    if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
        char mode[8];
        std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
        refuse(dir, std::string("is writable by others (mode ") + mode + ")");
    }
    if ((st.st_mode & 07777) != kPrivate && ::fchmod(opened.fd, kPrivate) != 0)
        throw StateDirectoryError("cannot make state directory " + dir.string() + " private: " + std::strerror(errno));
    return dir;
}

std::filesystem::path state_directory() {
    if (::geteuid() == 0 && ::access("/run", W_OK) == 0) return private_directory("/run/lockcheck");
    const char* tmp = std::getenv("TMPDIR");
    return private_directory(std::filesystem::path(tmp && *tmp ? tmp : "/tmp") /
                             ("lockcheck-" + std::to_string(::geteuid())));
}

}  // namespace lockcheck
