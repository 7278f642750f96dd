// Fault "failover" on MariaDB servers whose replica becomes primary only when
// a failover manager says so (clusters/topologies/failover_control.hpp: topology
// mysql-replicated; network namespaces): what a failover manager does when it
// loses sight of the primary, while the old primary is in fact still up.
//
// start: cuts the primary off from the replica (DROP both ways, in one
//   iptables-restore batch inside the primary's namespace) and makes it
//   refuse NEW client connections (a TCP reset for SYNs to port 3306: the
//   address clients are sent to has moved), while client connections already
//   open keep working. Then promotes the replica (STOP SLAVE; SET GLOBAL
//   read_only = 0) without waiting for it to catch up, and kills every other
//   client session on the old primary (the sessions the manager moved; the
//   event's pick chooses which half). A killed client's next operation fails,
//   it reconnects, the old primary refuses it, and it writes to the promoted
//   replica; the others keep taking locks on the old primary, which no longer
//   replicates anything.
// heal: clears the rules and fences the old primary (SET GLOBAL read_only = 1):
//   one writable node again; its clients get read-only errors and move.
// One failover per run: later events find nothing to hit (nullopt).
// Targets: the old primary, then the promoted replica.
#pragma once

#include <mutex>

#include "clusters/topologies/failover_control.hpp"
#include "clusters/topologies/topology.hpp"
#include "nemesis/fault.hpp"

namespace lockcheck {

class MysqlFailover : public Fault {
public:
    /// `promotion`: the topology's (Topology::failover_control()).
    MysqlFailover(Topology& topology, PrimaryPromotion& promotion, bool namespaces)
        : topology_(topology), promotion_(promotion), namespaces_(namespaces) {}
    std::string kind() const override { return "failover"; }
    std::optional<std::string> unavailable_reason() const override;
    std::optional<std::vector<std::string>> start(const FaultEvent& event, const std::stop_token& stop) override;
    void heal() noexcept override;

private:
    Topology& topology_;
    PrimaryPromotion& promotion_;
    bool namespaces_;
    std::mutex mutex_;
    Node* cut_ = nullptr;
    bool done_ = false;
};

/// The firewall rules of a cut-off MariaDB primary: isolation from `peers`,
/// and a TCP reset for every new connection to port 3306.
std::vector<std::string> mysql_cut_off_rules(const std::vector<std::string>& peers);

}  // namespace lockcheck
