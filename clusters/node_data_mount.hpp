// One node's data directory on the lose-unsynced filesystem (docs/nemesis.md,
// "The lose-unsynced filesystem"), so that a power loss can take from the
// node exactly what its server never synced.
//
// The data lives in BACKING = DATA.durable beside the data directory DATA,
// and DATA is the filesystem's mount of it (its attic, for entries removed
// but not yet durably, is DATA.durable.attic). mount() first moves whatever
// DATA holds into BACKING: what was written before the server ever ran (a
// MariaDB installation, ZooKeeper's myid) counts as durable. unmount() takes
// the mount down, moves BACKING back to DATA and removes the attic, so a
// stopped node's data sits where it would without the filesystem (etcd's
// teardown can then delete it as usual).
//
// The mount's name in the mount table is unsyncedfs_fsname(run id, node),
// which is how `lockcheck clean` finds what a dead run left mounted. A daemon
// that dies while mounted is detached at once and reported to on_failure
// (unsyncedfs/unsynced_mount.hpp); failure() keeps the reason. Not
// thread-safe: its Node serialises the calls.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "unsyncedfs/unsynced_mount.hpp"

namespace lockcheck {

/// The switch "nodes keep their data on the lose-unsynced filesystem"
/// (TopologyOptions::unsynced_data). Without it nothing is mounted.
struct UnsyncedDataOptions {
    std::filesystem::path daemon;  ///< the lockcheck-unsyncedfs binary (find_unsyncedfs_daemon)
    std::string run_id;            ///< names every mount (unsyncedfs_fsname), so `clean` finds a dead run's
    /// When directory changes become durable: "" lets each server's rule
    /// apply (NodeProgram::metadata_rule), "dir-fsync" or "any-fsync" forces
    /// one on every node.
    std::string metadata_rule;
    /// Called, from the daemon's watching thread, when a node's filesystem
    /// daemon dies while mounted (its mount is detached already), with one
    /// line naming the node's mount and the daemon's last words.
    std::function<void(const std::string& message)> on_failure = {};
};

class NodeDataMount {
public:
    struct Options {
        std::filesystem::path daemon;    ///< lockcheck-unsyncedfs
        std::filesystem::path data_dir;  ///< the server's data directory (DATA)
        std::string fsname;              ///< unsyncedfs_fsname(run id, node)
        std::string metadata_rule;       ///< "dir-fsync" | "any-fsync"
        std::filesystem::path log;       ///< the daemon's stderr
        std::function<void(const std::string& message)> on_failure = {};
    };

    explicit NodeDataMount(Options options);
    /// unmount().
    ~NodeDataMount();
    NodeDataMount(const NodeDataMount&) = delete;
    NodeDataMount& operator=(const NodeDataMount&) = delete;

    /// Mounts the filesystem over the data directory (moving what it holds
    /// into the backing directory first); nothing when mounted already.
    /// Throws UnsyncedFsError with the reason, also when the filesystem
    /// failed before (its daemon died).
    void mount();
    /// Throws away what the server never synced and mounts a fresh daemon
    /// over what is left (UnsyncedMount::power_loss; `tear` says what of
    /// the unsynced writes persists, none by default). Kill and reap the
    /// server first. Throws UnsyncedFsError when not mounted or when the
    /// filesystem fails; the mount is down then.
    PowerLossSummary power_loss(const unsyncedfs::Tear& tear = {});
    /// Makes the filesystem answer file syncs and writes with `errors` from
    /// now on (UnsyncedMount::set_disk_errors; DiskErrors{} heals). Throws
    /// UnsyncedFsError when not mounted or when the filesystem fails.
    void set_disk_errors(const unsyncedfs::DiskErrors& errors);
    /// Makes everything on the filesystem durable now, as the kernel's
    /// writeback would after half a minute: fsyncs every regular file and
    /// directory under the mount (each directory after what it holds).
    /// Entries removed meanwhile are skipped. Throws UnsyncedFsError when not
    /// mounted or when an fsync fails.
    void write_back();
    /// Unmounts and moves the data back into the data directory. Idempotent;
    /// never throws.
    void unmount() noexcept;
    bool mounted() const { return mount_ != nullptr; }
    /// Why the filesystem failed (its daemon died or hung), once it did.
    std::optional<std::string> failure() const;
    const std::filesystem::path& data_dir() const { return options_.data_dir; }
    /// DATA.durable: where the data lives while mounted.
    std::filesystem::path backing_dir() const;

private:
    Options options_;
    std::atomic<bool> reported_{false};   ///< on_failure was called (once per node, from any thread)
    std::optional<std::string> failure_;  ///< kept once the failed mount is gone
    std::unique_ptr<UnsyncedMount> mount_;

    /// Throws UnsyncedFsError unless mounted and sound.
    void require_mounted() const;
    /// Calls on_failure the first time only.
    void notify(const std::string& message);
    /// Records `message` as the failure and notifies.
    void report(const std::string& message);
};

/// The data mount of node `node` (directory `node_dir`) whose server keeps
/// its data in `data_dir` under `metadata_rule`, when `options` (the switch)
/// is set and the server keeps data; else nullptr. The daemon logs to
/// `node_dir`/unsyncedfs.log.
std::unique_ptr<NodeDataMount> make_node_data_mount(const std::optional<UnsyncedDataOptions>& options,
                                                    const std::string& node, const std::filesystem::path& node_dir,
                                                    const std::filesystem::path& data_dir,
                                                    const std::string& metadata_rule);

}  // namespace lockcheck
