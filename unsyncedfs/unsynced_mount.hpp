// The harness's handle on one lose-unsynced filesystem (docs/nemesis.md, "The
// lose-unsynced filesystem") mounted over a node's data directory.
//
// The constructor starts the daemon (lockcheck-unsyncedfs) and returns once
// the mount is up. power_loss() throws away everything that is not durable
// and mounts a fresh daemon over what is left, ready for the restarted
// server. The destructor and unmount() take the mount down (lazily when a
// process still uses it) and stop the daemon.
//
// The daemon is spawned, and watched, by a thread the mount owns, so
// PR_SET_PDEATHSIG ties it to the mount rather than to whichever thread built
// the mount. If the daemon dies while mounted, that thread detaches the mount
// at once and reports the death (on_failure, failure()): a dead daemon never
// leaves a mount behind, and processes using it get errors, not a hang. A
// daemon that does not answer a command in time is killed, its mount
// detached, and the command throws. Thread-safe. Like the controller, the
// caller must ignore SIGPIPE (a dead daemon's control pipe would raise it).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

#include "unsyncedfs/disk_errors.hpp"
#include "unsyncedfs/torn_write.hpp"

namespace lockcheck {

class UnsyncedFsError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct UnsyncedMountOptions {
    std::filesystem::path daemon;                 ///< the lockcheck-unsyncedfs binary (find_unsyncedfs_daemon)
    std::filesystem::path backing;                ///< the directory that holds the data; must exist
    std::filesystem::path mountpoint;             ///< created when missing; must not be a mount point
    std::filesystem::path attic;                  ///< where removed entries wait (default: BACKING.attic)
    std::string fsname = "lockcheck-unsyncedfs";  ///< unsyncedfs_fsname(run id, node) for runs
    std::string metadata = "dir-fsync";           ///< or "any-fsync" (DurabilityModel's MetadataRule)
    std::filesystem::path log;                    ///< the daemon's stderr is appended here
    std::chrono::milliseconds timeout{10000};     ///< for mounting, each command and each unmount
    /// Called from the watching thread when the daemon dies while mounted,
    /// with the message failure() returns; the mount is detached already.
    std::function<void(const std::string& message)> on_failure = {};
};

struct PowerLossSummary {
    std::size_t files_restored = 0;  ///< files whose unsynced data was thrown away
    std::size_t files_torn = 0;      ///< of those, the files a tear kept part of it in
    std::size_t changes_undone = 0;  ///< directory changes undone
};

class UnsyncedMount {
public:
    /// Starts the daemon and waits until the filesystem is mounted.
    /// Throws UnsyncedFsError with the reason (and the daemon's last log line).
    explicit UnsyncedMount(UnsyncedMountOptions options);
    /// Unmounts and stops the daemon; never throws.
    ~UnsyncedMount();
    UnsyncedMount(const UnsyncedMount&) = delete;
    UnsyncedMount& operator=(const UnsyncedMount&) = delete;

    /// Throws away every write and directory change that is not durable, so
    /// the backing directory holds exactly the durable state (but for what
    /// `tear` keeps of unsynced writes: unsyncedfs/torn_write.hpp), then
    /// mounts a fresh daemon over it. Call it while nothing uses the mount (kill and
    /// reap the node's servers first). Throws UnsyncedFsError when the daemon
    /// is dead, does not answer within the timeout, or could not undo
    /// something (the mount is then down).
    PowerLossSummary power_loss(const unsyncedfs::Tear& tear = {});
    /// From now on the filesystem answers file syncs and writes with
    /// `errors` (unsyncedfs/disk_errors.hpp); DiskErrors{} heals. The mount
    /// stays up. Throws UnsyncedFsError when the daemon is dead, does not
    /// answer within the timeout, or refuses.
    void set_disk_errors(const unsyncedfs::DiskErrors& errors);
    /// The daemon's "ok status ..." line (unsynced files, pending changes).
    std::string status();
    /// Unmounts (lazily when busy) and stops the daemon. Idempotent.
    void unmount();
    /// Why the filesystem failed (its daemon died or hung), once it did.
    std::optional<std::string> failure() const;
    /// The daemon's PID while mounted, else -1.
    pid_t daemon_pid() const;
    const std::filesystem::path& mountpoint() const { return options_.mountpoint; }

private:
    struct Daemon;
    UnsyncedMountOptions options_;
    mutable std::mutex mutex_;  ///< serialises mounting, commands and unmounting
    std::unique_ptr<Daemon> daemon_;
    mutable std::mutex failure_mutex_;
    std::optional<std::string> failure_;

    void mount_locked();
    void unmount_locked();
    std::string command_locked(const std::string& command);
    [[noreturn]] void abandon_locked(const std::string& message);
    void record_failure(const std::string& message);
    void watch(Daemon& daemon, std::function<void()> spawned);
};

}  // namespace lockcheck
