// Fault "disk-error": a disk that fails while the server runs. For the
// event's duration (fault_duration_ms) the lose-unsynced filesystem under a
// node's data directory answers a chosen operation with an error
// (unsyncedfs/disk_errors.hpp), then heals:
//   fsync  every fsync and fdatasync of a file fails with EIO, and the
//          file's unsynced writes are dropped first, as Linux drops the
//          pages of a failed writeback;
//   write  every write fails with ENOSPC and writes nothing, a full disk;
//   both   the two at once.
// What the server does is its own choice (docs/nemesis.md, "Disk errors"):
// it may go on, refuse writes, or exit. At heal() the filesystem works
// again, and a node whose server exited meanwhile is started again
// (start_node_again, nemesis/delayed_restart.hpp): how long it took, or
// "n1 did not restart after disk-error: <the server's last log line>", is
// recorded on the stop-fault completion like every restarting fault's
// (Fault::restarts) and is a finding of the run, not a harness error.
//
// Which node: one the holder's lock is on, picked as power-loss picks one
// (nemesis/power_loss.hpp; waits up to 5 s for a held lock); among nodes
// that keep their data on the lose-unsynced filesystem. When there is only
// one such node (redis-single, mysql-single), that node, held lock or not.
// The start-fault record's targets name the node and what fails
// ("n1", "fsync=eio write=ok").
//
// Unavailable in a run whose nodes keep no data on the lose-unsynced
// filesystem (TopologyOptions::unsynced_data unset).
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "nemesis/fault.hpp"
#include "nemesis/fault_descriptor.hpp"
#include "nemesis/lock_location.hpp"
#include "unsyncedfs/disk_errors.hpp"

namespace lockcheck {

/// The errors spec field disk_error_op names: "fsync" (EIO), "write"
/// (ENOSPC) or "both". Throws std::invalid_argument for any other word.
unsyncedfs::DiskErrors disk_errors_for(const std::string& op);

/// The node a disk-error event strikes among `capable` (the nodes on the
/// lose-unsynced filesystem, in node order) when the current lock is on
/// `lock_nodes`: a lock node `pick` chooses, else the only capable node;
/// nullptr when there is none.
Node* disk_error_target(const std::vector<Node*>& capable, const std::vector<Node*>& lock_nodes, std::uint64_t pick);

class DiskError : public Fault {
public:
    DiskError(LockLocator locator, unsyncedfs::DiskErrors errors) : locator_(std::move(locator)), errors_(errors) {}
    std::string kind() const override { return "disk-error"; }
    std::optional<std::string> unavailable_reason() const override;
    std::optional<std::vector<std::string>> start(const FaultEvent& event, const std::stop_token& stop) override;
    /// Heals the filesystem, then starts the node again if its server exited.
    void heal() noexcept override;
    std::vector<NodeRestart> restarts() const override;

private:
    LockLocator locator_;
    unsyncedfs::DiskErrors errors_;
    mutable std::mutex mutex_;
    Node* struck_ = nullptr;
    std::vector<NodeRestart> restarts_;
};

/// The descriptor of this fault (nemesis/disk_error_descriptor.cpp).
FaultDescriptor disk_error_fault();

}  // namespace lockcheck
