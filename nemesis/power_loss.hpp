// Fault "power-loss": cut the power of server nodes (SIGKILL, and what each
// never synced is lost: clusters/power_loss.hpp) and restore it
// restart_delay_ms later (the spec field kill-restart has too; 0 = at once).
// The event's duration is the restart delay: stop-fault marks the restart.
//
// Which nodes (spec field power_loss_nodes), among the nodes that keep their
// data on the lose-unsynced filesystem:
//   one       a node the current holder's lock is on, picked as kill-restart
//             picks it (nemesis/lock_location.hpp; the event's `pick` chooses);
//   majority  a bare majority of the topology's nodes (N/2 + 1), the lock's
//             nodes first: what a quorum system must not lose;
//   all       every node at once, a rack losing power.
// Like kill-restart it waits up to 5 s for a held lock (on Redis) and strikes
// nothing without one. Restarts follow nemesis/delayed_restart.hpp.
//
// When (spec field power_loss_after_grant_ms, default -1: at the event's
// time): with N set, the event waits for a fresh grant, an acquire ok the
// history records after the event began (up to kWaitForFreshGrant), and
// strikes N ms after it if that worker still holds (else it waits for the
// next grant): nemesis/fresh_grant.hpp, the trigger any event of an explicit
// schedule can have too (after_grant_ms). A power loss N ms after a commit catches what a database
// writes at commit but syncs later (InnoDB's once-a-second log flush with
// innodb_flush_log_at_trx_commit = 2); one at a random moment mostly finds
// the holder's record synced already.
//
// Fault "torn-write" is the same power loss with a tear (spec field
// torn_write_keeps, unsyncedfs/torn_write.hpp): of each file's writes since
// its last sync a part persists, a prefix of the last write
// (last-write-prefix) or a seeded subset of the 4 KiB sectors written
// (sectors). The tear's seed is the event's pick, so a replay of the
// schedule tears the same writes the same way. Its event lists, after the
// nodes, how many files each tear kept part of.
//
// Unavailable in a run whose nodes keep no data on the lose-unsynced
// filesystem (TopologyOptions::unsynced_data unset). A failing filesystem
// makes start() throw UnsyncedFsError; the run learns of it through
// UnsyncedDataOptions::on_failure.
#pragma once

#include <chrono>
#include <optional>
#include <vector>

#include "nemesis/delayed_restart.hpp"
#include "nemesis/fault.hpp"
#include "nemesis/fault_descriptor.hpp"
#include "nemesis/fresh_grant.hpp"
#include "nemesis/lock_location.hpp"
#include "unsyncedfs/torn_write.hpp"

namespace lockcheck {

class PowerLoss : public RestartingFault {
public:
    /// How many nodes lose power together (spec field power_loss_nodes).
    enum class Reach { One, Majority, All };

    /// `workers`: whose grants power_loss_after_grant_ms waits for;
    /// `after_grant_ms`: that field (nullopt: strike at the event's time);
    /// `interrupt`: the run's interrupt (Ctrl-C), which ends heal()'s wait;
    /// `tear`: what of the unsynced writes persists (None: "power-loss",
    /// else "torn-write").
    PowerLoss(LockLocator locator, WorkerControl& workers, Reach reach, std::int64_t restart_delay_ms,
              std::optional<std::int64_t> after_grant_ms, std::stop_token interrupt,
              unsyncedfs::TearMode tear = unsyncedfs::TearMode::None)
        : RestartingFault(tear == unsyncedfs::TearMode::None ? "power-loss" : "torn-write", restart_delay_ms,
                          std::move(interrupt)),
          locator_(std::move(locator)),
          workers_(workers),
          reach_(reach),
          after_grant_ms_(after_grant_ms),
          tear_(tear) {}
    std::optional<std::string> unavailable_reason() const override;
    std::optional<std::vector<std::string>> start(const FaultEvent& event, const std::stop_token& stop) override;

private:
    LockLocator locator_;
    WorkerControl& workers_;
    Reach reach_;
    std::optional<std::int64_t> after_grant_ms_;
    unsyncedfs::TearMode tear_;
};

/// The nodes `reach` strikes among `capable` (the nodes that can lose power,
/// in node order) when the current lock is on `lock_nodes`, starting at
/// `pick`: one lock node, a bare majority of `capable` taking the lock
/// nodes first, or all of `capable`. Lock nodes that cannot lose power are
/// passed over; empty when none can.
std::vector<Node*> power_loss_targets(PowerLoss::Reach reach, const std::vector<Node*>& capable,
                                      const std::vector<Node*>& lock_nodes, std::uint64_t pick);

/// The descriptors of these faults (nemesis/power_loss_descriptor.cpp).
FaultDescriptor power_loss_fault();
FaultDescriptor torn_write_fault();

}  // namespace lockcheck
