// Fault "kill-restart": SIGKILL a server node (a crash) and start it again
// restart_delay_ms later (spec field; 0 = at once). The event's duration is
// the restart delay: stop-fault marks the restart. With persistence none the
// node comes back empty; with everysec/always it replays its AOF.
//
// Target: on Redis topologies, a node the current holder's lock is on,
// preferring a holder whose lock sits on a bare majority (see
// nemesis/lock_location.hpp; waits up to 5 s for a held lock; with the
// unique-id workload, the nodes holding the id counter); the event's `pick`
// chooses among those nodes. Without a held lock: no target.
// With kill_restart_nodes N (spec field or an event's option, default 1),
// N distinct nodes of that lock, from the one `pick` chooses on in node
// order, all killed at once and started again together; at most the nodes
// the lock is on.
// heal() never restarts the node before the delay has passed, not even when
// the run stops early; on Ctrl-C the node stays down (nemesis/delayed_restart.hpp).
// Topologies that name their lock nodes themselves (Topology::lock_nodes())
// are struck there: zookeeper and etcd, the leader (any member while none
// leads); the MariaDB topologies, the primary, held lock or not.
#pragma once

#include <vector>

#include "nemesis/delayed_restart.hpp"
#include "nemesis/fault.hpp"
#include "nemesis/fault_descriptor.hpp"
#include "nemesis/lock_location.hpp"

namespace lockcheck {

class KillRestart : public RestartingFault {
public:
    /// `interrupt`: the run's interrupt (Ctrl-C), which ends heal()'s wait.
    /// `nodes`: kill_restart_nodes, how many of the lock's nodes one event kills (>= 1).
    KillRestart(LockLocator locator, std::int64_t nodes, std::int64_t restart_delay_ms, std::stop_token interrupt)
        : RestartingFault("kill-restart", restart_delay_ms, std::move(interrupt)),
          locator_(std::move(locator)),
          nodes_(static_cast<std::size_t>(nodes)) {}
    std::optional<std::vector<std::string>> start(const FaultEvent& event, const std::stop_token& stop) override;

private:
    LockLocator locator_;
    std::size_t nodes_;
};

/// The nodes one event kills when the current lock is on `lock_nodes`:
/// `count` of them (all when it is on fewer), from lock_nodes[pick % size]
/// on, wrapping around. Empty when `lock_nodes` is.
std::vector<Node*> kill_restart_targets(const std::vector<Node*>& lock_nodes, std::uint64_t pick, std::size_t count);

/// The descriptor of this fault (nemesis/kill_restart_descriptor.cpp).
FaultDescriptor kill_restart_fault();

}  // namespace lockcheck
