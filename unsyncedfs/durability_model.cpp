#include "unsyncedfs/durability_model.hpp"

#include <fcntl.h>
#include <linux/falloc.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <system_error>

namespace lockcheck::unsyncedfs {
namespace {

/// Runs `body` (which may throw the FileUndo's std::system_error) and returns its errno value.
template <typename Body>
int guarded(Body&& body) {
    try {
        return body();
    } catch (const std::system_error& e) {
        return e.code().value() != 0 ? e.code().value() : EIO;
    }
}

/// A readable and writable descriptor of the inode behind an O_PATH
/// descriptor (a tear reads what it keeps before it restores the rest).
int reopen_read_write(const Inode& inode) {
    const std::string path = "/proc/self/fd/" + std::to_string(inode.fd);
    return ::open(path.c_str(), O_RDWR | O_CLOEXEC);
}

}  // namespace

std::optional<MetadataRule> metadata_rule_from_string(const std::string& text) {
    if (text == "dir-fsync") return MetadataRule::DirectoryFsync;
    if (text == "any-fsync") return MetadataRule::AnyFsync;
    return std::nullopt;
}

DurabilityModel::DurabilityModel(InodeTable& table, int attic_fd, MetadataRule rule)
    : table_(table), journal_(attic_fd), rule_(rule) {}

std::optional<DurabilityModel::ServeLock> DurabilityModel::serve() {
    ServeLock lock(power_);
    if (powered_off_) return std::nullopt;
    return lock;
}

void DurabilityModel::created(Inode& file) {
    std::lock_guard lock(file.data_mutex);
    file.undo.start_empty();
}

void DurabilityModel::commit_after_file_sync() {
    if (rule_ == MetadataRule::AnyFsync) journal_.commit_all();
}

void DurabilityModel::set_disk_errors(const DiskErrors& errors) {
    std::lock_guard lock(errors_mutex_);
    errors_ = errors;
}

DiskErrors DurabilityModel::disk_errors() const {
    std::lock_guard lock(errors_mutex_);
    return errors_;
}

int DurabilityModel::write(Inode& file, int fd, const char* data, std::size_t size, off_t offset,
                           std::size_t& written) {
    if (const int error = disk_errors().write_errno; error != 0) return error;
    std::lock_guard lock(file.data_mutex);
    return guarded([&] {
        file.undo.before_write(fd, offset, static_cast<off_t>(size));
        written = 0;
        while (written < size) {
            const ssize_t n = ::pwrite(fd, data + written, size - written, offset + static_cast<off_t>(written));
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) return written > 0 ? 0 : errno;
            if (n == 0) break;
            written += static_cast<std::size_t>(n);
        }
        return 0;
    });
}

int DurabilityModel::truncate(Inode& file, int fd, off_t size) {
    std::lock_guard lock(file.data_mutex);
    return guarded([&] {
        file.undo.before_truncate(fd, size);
        return ::ftruncate(fd, size) == 0 ? 0 : errno;
    });
}

int DurabilityModel::fallocate(Inode& file, int fd, int mode, off_t offset, off_t length) {
    constexpr int kSupported = FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE;
    if ((mode & ~kSupported) != 0) return EOPNOTSUPP;
    std::lock_guard lock(file.data_mutex);
    return guarded([&] {
        if ((mode & (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE)) != 0)
            file.undo.before_write(fd, offset, length);
        else if ((mode & FALLOC_FL_KEEP_SIZE) == 0)
            file.undo.before_grow(fd);
        return ::fallocate(fd, mode, offset, length) == 0 ? 0 : errno;
    });
}

int DurabilityModel::sync_file(Inode& file, int fd, bool data_only) {
    std::lock_guard lock(file.data_mutex);
    if (const int error = disk_errors().fsync_errno; error != 0) {
        const int writable = reopen_read_write(file);  // `fd` may be read-only
        if (writable < 0) return EIO;
        guarded([&] {
            file.undo.restore(writable);
            return 0;
        });
        ::close(writable);
        return error;
    }
    if ((data_only ? ::fdatasync(fd) : ::fsync(fd)) != 0) return errno;
    file.undo.synced();
    commit_after_file_sync();
    return 0;
}

int DurabilityModel::sync_directory(Inode& dir) {
    const int fd = ::openat(dir.fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return errno;
    const int error = ::fsync(fd) == 0 ? 0 : errno;
    ::close(fd);
    if (error != 0) return error;
    if (rule_ == MetadataRule::AnyFsync)
        journal_.commit_all();
    else
        journal_.commit_through(dir);
    table_.prune();  // the journal may have let go of directories
    return 0;
}

PowerLossReport DurabilityModel::power_loss(const Tear& tear) {
    std::unique_lock lock(power_);
    PowerLossReport report;
    if (powered_off_) return report;
    table_.for_each([&](Inode& inode) {
        std::lock_guard data(inode.data_mutex);
        if (!inode.undo.tracking()) return;
        const int fd = reopen_read_write(inode);
        const int error = fd < 0 ? errno : guarded([&] {
            if (inode.undo.restore(fd, tear)) ++report.files_torn;
            return 0;
        });
        if (fd >= 0) ::close(fd);
        if (error != 0) {
            std::fprintf(stderr, "lockcheck-unsyncedfs: cannot restore a file's durable data: %s\n",
                         std::strerror(error));
            ++report.failures;
        }
        ++report.files_restored;
    });
    report.changes_undone = journal_.undo_all(report.failures);
    powered_off_ = true;
    return report;
}

DurabilityStatus DurabilityModel::status() {
    DurabilityStatus status;
    table_.for_each([&](Inode& inode) {
        std::lock_guard data(inode.data_mutex);
        if (inode.undo.tracking()) ++status.unsynced_files;
    });
    status.pending_changes = journal_.pending();
    return status;
}

}  // namespace lockcheck::unsyncedfs
