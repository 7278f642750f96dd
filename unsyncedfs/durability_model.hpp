// The durability rules of the lose-unsynced filesystem (docs/nemesis.md,
// "The lose-unsynced filesystem"): which operations make what durable, and
// the power loss that throws away everything that is not.
//
// - File data is durable after fsync/fdatasync of the file (FileUndo per
//   inode); the kernel sends one after each O_SYNC/O_DSYNC write and msync.
// - Directory changes (create, mkdir, symlink, link, unlink, rmdir, rename)
//   are journaled in order (NamespaceJournal). Under the rule `dir-fsync`
//   an fsync of a directory commits the journal up to that directory's last
//   change; under `any-fsync` (ext4's ordered journal) any fsync or
//   fdatasync commits all of it.
// - Attributes (mode, owner, times) and preallocation that keeps the size
//   are durable at once.
//
// Every FUSE request holds serve()'s shared lock while it runs; power_loss()
// takes it exclusively, so it waits for requests in progress and every later
// request fails with EIO: after a power loss the mount must be unmounted and
// mounted again (the kernel's caches describe the lost state). Methods
// return 0 or an errno value for the FUSE reply.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>

#include "unsyncedfs/disk_errors.hpp"
#include "unsyncedfs/inode_table.hpp"
#include "unsyncedfs/namespace_journal.hpp"

namespace lockcheck::unsyncedfs {

/// When directory changes become durable.
enum class MetadataRule {
    DirectoryFsync,  ///< "dir-fsync": an fsync of the directory (POSIX's promise; the default)
    AnyFsync,        ///< "any-fsync": any fsync of anything (what ext4's journal does)
};

/// "dir-fsync" or "any-fsync"; nullopt for anything else.
std::optional<MetadataRule> metadata_rule_from_string(const std::string& text);

struct PowerLossReport {
    std::size_t files_restored = 0;  ///< files whose unsynced data was thrown away
    std::size_t files_torn = 0;      ///< of those, the files a tear kept part of it in
    std::size_t changes_undone = 0;  ///< directory changes undone
    std::size_t failures = 0;        ///< backing syscalls that failed while undoing (logged)
};

struct DurabilityStatus {
    std::size_t unsynced_files = 0;   ///< files with data that is not durable
    std::size_t pending_changes = 0;  ///< directory changes that are not durable
};

class DurabilityModel {
public:
    DurabilityModel(InodeTable& table, int attic_fd, MetadataRule rule);

    using ServeLock = std::shared_lock<std::shared_mutex>;
    /// The lock a request holds while it runs; nullopt once the power is lost.
    std::optional<ServeLock> serve();

    NamespaceJournal& journal() { return journal_; }
    /// `file` (a regular file) was just created: none of its data is durable.
    void created(Inode& file);
    /// pwrite(2) of `size` bytes at `offset` through `fd`. (A write through a
    /// descriptor opened with O_SYNC/O_DSYNC is followed by the kernel's own
    /// fsync request, generic_write_sync(): sync_file() makes it durable.)
    int write(Inode& file, int fd, const char* data, std::size_t size, off_t offset, std::size_t& written);
    /// ftruncate(2) through `fd` (readable and writable).
    int truncate(Inode& file, int fd, off_t size);
    /// fallocate(2) through `fd`: modes 0, KEEP_SIZE, PUNCH_HOLE and ZERO_RANGE.
    int fallocate(Inode& file, int fd, int mode, off_t offset, off_t length);
    /// fsync(2) / fdatasync(2) of a file through `fd`.
    int sync_file(Inode& file, int fd, bool data_only);
    /// fsync(2) of a directory.
    int sync_directory(Inode& dir);

    /// From now on answers file syncs and writes with `errors` (DiskErrors;
    /// all 0 heals). A sync that fails this way first drops the file's
    /// unsynced writes: its backing file holds its durable content again.
    void set_disk_errors(const DiskErrors& errors);
    DiskErrors disk_errors() const;

    /// Throws away everything that is not durable; the backing directory then
    /// holds exactly the durable state, except what `tear` keeps of each
    /// file's unsynced writes (unsyncedfs/torn_write.hpp). Later calls (and
    /// requests) do nothing.
    PowerLossReport power_loss(const Tear& tear = {});
    DurabilityStatus status();

private:
    InodeTable& table_;
    NamespaceJournal journal_;
    const MetadataRule rule_;
    std::shared_mutex power_;
    bool powered_off_ = false;  ///< guarded by power_
    mutable std::mutex errors_mutex_;
    DiskErrors errors_;  ///< guarded by errors_mutex_

    void commit_after_file_sync();
};

}  // namespace lockcheck::unsyncedfs
