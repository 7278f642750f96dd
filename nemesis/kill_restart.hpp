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

class KillRestart : public Fault {
public:
    /// `interrupt`: the run's interrupt (Ctrl-C), which ends heal()'s wait.
    KillRestart(LockLocator locator, std::int64_t restart_delay_ms, std::stop_token interrupt)
        : locator_(std::move(locator)), restart_("kill-restart", restart_delay_ms, std::move(interrupt)) {}
    std::string kind() const override { return "kill-restart"; }
    std::int64_t duration_ms(const FaultEvent&) const override { return restart_.delay_ms(); }
    std::optional<std::vector<std::string>> start(const FaultEvent& event, const std::stop_token& stop) override;
    void heal() noexcept override;

private:
    LockLocator locator_;
    DelayedRestart restart_;
};

/// The descriptor of this fault (nemesis/kill_restart_descriptor.cpp).
FaultDescriptor kill_restart_fault();

}  // namespace lockcheck
