#include "nemesis/fault_factory.hpp"

#include <algorithm>
#include <stdexcept>

#include "clusters/redis_sentinel.hpp"
#include "nemesis/clock_skew.hpp"
#include "nemesis/failover.hpp"
#include "nemesis/kill_holder.hpp"
#include "nemesis/kill_restart.hpp"
#include "clusters/mysql_replicated.hpp"
#include "nemesis/mysql_failover.hpp"
#include "nemesis/packet_loss.hpp"
#include "nemesis/partition.hpp"
#include "nemesis/pause_holder.hpp"
#include "nemesis/pause_node.hpp"

namespace lockcheck {
namespace {

/// Sentinel's failover on redis-sentinel, the harness's own on mysql-replicated.
std::unique_ptr<Fault> make_failover(const FaultTargets& targets) {
    if (auto* mysql = dynamic_cast<MysqlReplicated*>(&targets.topology))
        return std::make_unique<MysqlFailover>(*mysql, targets.namespaces);
    return std::make_unique<Failover>(dynamic_cast<RedisSentinel*>(&targets.topology), targets.namespaces);
}

}  // namespace

const std::vector<FaultKind>& fault_kinds() {
    static const std::vector<FaultKind> kinds{
        {"pause-holder", "SIGSTOP the worker holding the lock (a stop-the-world GC), then SIGCONT"},
        {"pause-node", "SIGSTOP a server node, then SIGCONT"},
        {"kill-holder", "SIGKILL the worker holding the lock or half-way through acquiring it (a client crash)"},
        {"kill-restart", "SIGKILL a node the holder's lock is on, restart it after restart_delay_ms"},
        {"failover", "cut the primary off until a replica is promoted (Sentinel; on mysql-replicated the harness promotes it), then heal (needs namespaces)"},
        {"partition", "iptables partition inside the node namespaces, by partition_mode (needs namespaces)"},
        {"packet-loss", "one node drops packets with probability packet_loss (needs namespaces)"},
        {"clock-skew", "move one or two nodes' wall clocks by clock_skew_ms (LD_PRELOAD clock library)"},
    };
    return kinds;
}

bool is_fault_kind(const std::string& name) {
    const auto& kinds = fault_kinds();
    return std::any_of(kinds.begin(), kinds.end(), [&](const FaultKind& k) { return k.name == name; });
}

std::map<std::string, std::unique_ptr<Fault>> make_faults(const std::vector<std::string>& kinds,
                                                          const FaultTargets& targets) {
    std::map<std::string, std::unique_ptr<Fault>> faults;
    for (const auto& kind : kinds) {
        std::unique_ptr<Fault> fault;
        if (kind == "pause-holder") fault = std::make_unique<PauseHolder>(targets.workers);
        else if (kind == "pause-node") fault = std::make_unique<PauseNode>(targets.topology.nodes());
        else if (kind == "kill-holder") fault = std::make_unique<KillHolder>(targets.workers);
        else if (kind == "kill-restart")
            fault = std::make_unique<KillRestart>(LockLocator(targets.topology, targets.server_password),
                                                  targets.settings.restart_delay_ms, targets.interrupt);
        else if (kind == "failover")
            fault = make_failover(targets);
        else if (kind == "partition")
            fault = std::make_unique<Partition>(targets.topology, targets.namespaces, targets.settings.partition_mode);
        else if (kind == "packet-loss")
            fault = std::make_unique<PacketLoss>(targets.topology.nodes(), targets.namespaces, targets.settings.packet_loss);
        else if (kind == "clock-skew")
            fault = std::make_unique<ClockSkew>(LockLocator(targets.topology, targets.server_password),
                                                targets.settings.clock_skew_ms, targets.settings.clock_skew_nodes);
        else throw std::invalid_argument("unknown fault '" + kind + "'");
        if (auto reason = fault->unavailable_reason())
            throw std::invalid_argument("fault '" + kind + "' is unavailable here: " + *reason);
        faults[kind] = std::move(fault);
    }
    return faults;
}

}  // namespace lockcheck
