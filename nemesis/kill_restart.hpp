// Fault "kill-restart": SIGKILL a server node (a crash) and start it again
// restart_delay_ms later (spec field; 0 = at once). The event's duration is
// the restart delay: stop-fault marks the restart. With persistence none the
// node comes back empty; with everysec/always it replays its AOF.
//
// Target: on Redis topologies, a node the current holder's lock is on,
// preferring a holder whose lock sits on a bare majority (see
// nemesis/lock_location.hpp; waits up to 5 s for a held lock); the event's
// `pick` chooses among those nodes. Without a held lock: no target.
// On a replicated store where every member holds every lock (etcd), the
// locator is primary_or_any(): the leader, or any member when none is known.
#pragma once

#include <functional>
#include <mutex>
#include <vector>

#include "clusters/node.hpp"
#include "clusters/topology.hpp"
#include "nemesis/fault.hpp"

namespace lockcheck {

class KillRestart : public Fault {
public:
    /// The nodes a kill may strike now (the event's pick chooses one); empty: no target.
    using Locator = std::function<std::vector<Node*>(const std::atomic<bool>& stop)>;

    /// Targets the nodes of the current Redis lock (nemesis/lock_location.hpp).
    KillRestart(std::vector<Node*> nodes, std::int64_t restart_delay_ms);
    KillRestart(std::vector<Node*> nodes, std::int64_t restart_delay_ms, Locator locate)
        : nodes_(std::move(nodes)), restart_delay_ms_(restart_delay_ms), locate_(std::move(locate)) {}
    std::string kind() const override { return "kill-restart"; }
    std::int64_t duration_ms(const FaultEvent&) const override { return restart_delay_ms_; }
    std::optional<std::vector<std::string>> start(const FaultEvent& event, const std::atomic<bool>& stop) override;
    void heal() noexcept override;

private:
    std::vector<Node*> nodes_;
    std::int64_t restart_delay_ms_;
    Locator locate_;
    std::mutex mutex_;
    Node* killed_ = nullptr;
};

/// A locator for `topology`: its primary() when it names one, else every node.
KillRestart::Locator primary_or_any(Topology& topology);

}  // namespace lockcheck
