#include "nemesis/failover.hpp"
#include "nemesis/mysql_failover.hpp"

namespace lockcheck {

FaultDescriptor failover_fault() {
    return {.name = "failover",
            .description =
                "cut the primary off until a replica is promoted (Sentinel; on mysql-replicated the "
                "harness promotes it), then heal (mysql-replicated needs namespaces; redis-sentinel in "
                "loopback mode cuts the fault proxy's peer links)",
            .cuts_peers = true,
            .make = [](const FaultTargets& targets, const nlohmann::json&) -> std::unique_ptr<Fault> {
                // Servers that elect a primary themselves get Sentinel's failover (unavailable without
                // an election); a topology that waits for a manager gets the harness as its manager.
                const FailoverControl control = targets.topology.failover_control();
                if (control.promotion)
                    return std::make_unique<MysqlFailover>(targets.topology, *control.promotion, targets.namespaces);
                return std::make_unique<Failover>(targets.topology, control.election, targets.namespaces,
                                                  targets.peer_links);
            }};
}

}  // namespace lockcheck
