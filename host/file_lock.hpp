// An exclusive advisory lock (flock) on a file, held while the object lives.
// The kernel drops it when the holder dies, so a crashed holder never blocks
// anyone: taking the lock is how lockcheck tells a live run from a dead one.
#pragma once

#include <filesystem>
#include <optional>

namespace lockcheck {

class FileLock {
public:
    /// Takes the lock on `path` (creating the file, mode 0600) without waiting;
    /// nullopt when another process holds it. Never follows a symbolic link:
    /// throws std::runtime_error naming the file when it cannot be opened
    /// (a link there, no permission).
    static std::optional<FileLock> try_lock(const std::filesystem::path& path);

    FileLock(FileLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
    FileLock& operator=(FileLock&& other) noexcept;
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;
    ~FileLock();

private:
    explicit FileLock(int fd) : fd_(fd) {}
    int fd_ = -1;
};

}  // namespace lockcheck
