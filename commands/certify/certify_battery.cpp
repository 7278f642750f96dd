#include "commands/certify/certify_battery.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "checkers/overlap_blame.hpp"

namespace lockcheck {
namespace {

const std::vector<std::string> kAll{"redis-single",     "redis-sentinel", "redis-independent", "mysql-single",
                                    "mysql-replicated", "zookeeper",      "etcd"};
/// A correct client never acts on a lease it knows is over, never revives a
/// lost lock, and (unless the cell says the servers may) never sees its lock
/// granted twice within a lease.
Expectation no_client_fault(bool within_lease_allowed) {
    Expectation e;
    if (!within_lease_allowed) e.lacks.push_back(kOverlapWithinLease);
    e.lacks.push_back(kLateGrant);
    e.lacks.push_back(kRenewAfterLoss);
    return e;
}

CertifyCell cell(std::string name, std::vector<std::string> nemesis, nlohmann::json settings,
                 std::vector<std::string> families, bool within_lease_is_server, double time_limit_s,
                 std::string reason) {
    return {std::move(name),         std::move(nemesis),   std::move(settings),
            std::move(families),     no_client_fault(within_lease_is_server),
            within_lease_is_server,  time_limit_s,         std::move(reason)};
}

}  // namespace

const std::vector<CertifyCell>& certify_battery() {
    static const std::vector<CertifyCell> battery = [] {
        std::vector<CertifyCell> b;
        CertifyCell none{"no-faults", {}, nlohmann::json::object(), kAll, Expectation{"valid", {}, {}}, false, 8,
                         "Without faults every lease is honoured: any violation is the client's."};
        b.push_back(std::move(none));
        b.push_back(cell("pause-holder", {"pause-holder"}, nlohmann::json::object(), kAll, false, 12,
                         "A holder stopped past its lease overlaps the next holder: overlap-lease-expired, which "
                         "every lease lock shows and fencing fixes. The lock itself must still never be granted "
                         "twice within a lease, nor a lost lock renewed."));
        b.push_back(cell("pause-client", {"pause-client"}, nlohmann::json::object(), kAll, false, 12,
                         "A GC-like pause of any client, waiting or holding: a waiter whose grant arrives after its "
                         "lease ended must not use it (late-grant), and a holder must not renew a lost lock."));
        b.push_back(cell("slow-reply", {"slow-reply"}, {{"slow_reply_ms", "1.2xttl"}, {"server_timeout_ms", 4000}},
                         kAll, false, 12,
                         "Replies to the holder arrive 1.2 x the TTL late: a grant that arrives after its lease "
                         "ended must be refused by the client (it knows when it asked), so no late-grant."));
        b.push_back(cell("delay", {"delay"}, {{"delay_ms", "0.6xttl"}, {"server_timeout_ms", 4000}}, kAll, false, 12,
                         "Every packet is late by 0.6 x the TTL each way: a grant arrives with less than its TTL "
                         "left, and a correct client counts its validity from the moment it asked."));
        b.push_back(cell("client-partition", {"client-partition"}, nlohmann::json::object(), kAll, false, 12,
                         "One client is cut off from the servers while it runs: its lease expires on the servers; "
                         "it must neither act on a grant it cannot confirm in time nor revive the lock later."));
        b.push_back(cell("client-clock-skew", {"client-clock-skew"}, nlohmann::json::object(), kAll, false, 12,
                         "The client's wall clock jumps: a correct client times its lease with a monotonic clock, "
                         "so a jump changes nothing it decides."));
        b.push_back(cell("kill-restart-immediate", {"kill-restart"}, {{"restart_delay_ms", 0}},
                         {"redis-single", "redis-sentinel", "redis-independent", "mysql-single"}, true, 12,
                         "A server without persistence restarts empty at once and grants a lock its holder still "
                         "holds: overlap-within-lease is the server configuration's (enable persistence, or "
                         "restart it only after the TTL), not the client's."));
        b.push_back(cell("kill-restart-immediate", {"kill-restart"}, {{"restart_delay_ms", 0}},
                         {"mysql-replicated", "zookeeper", "etcd"}, false, 12,
                         "A replicated, durable service survives one node's crash-restart: no lock is granted twice "
                         "within a lease."));
        b.push_back(cell("kill-restart-delayed", {"kill-restart"}, {{"restart_delay_ms", "1.5xttl"}}, kAll, false, 15,
                         "A killed server stays down 1.5 x the TTL: every lease it held is over when it returns, "
                         "so even an empty restart grants no lock twice within a lease."));
        b.push_back(cell("power-loss", {"power-loss"}, nlohmann::json::object(),
                         {"redis-single", "redis-independent"}, true, 12,
                         "Without persistence (the default), Redis loses its keys with the power: an overlap "
                         "within the lease is the server configuration's (appendfsync always, or a delayed "
                         "restart)."));
        b.push_back(cell("power-loss", {"power-loss"}, nlohmann::json::object(), {"mysql-single"}, true, 12,
                         "MariaDB at its defaults keeps not every granted lock across a power loss: GET_LOCK's "
                         "named locks live in memory only, and at sync_binlog = 0 recovery rolls back a committed "
                         "transaction whose binary-log entry the power took, even with "
                         "innodb_flush_log_at_trx_commit = 1. An overlap within the lease is the server "
                         "configuration's (sync_binlog = 1, and a lock kept in a table)."));
        b.push_back(cell("power-loss", {"power-loss"}, nlohmann::json::object(), {"zookeeper", "etcd"}, false, 12,
                         "At the default durability (ZooKeeper forceSync, etcd fsync) a granted lock survives a "
                         "power loss."));
        b.push_back(cell("failover", {"failover"}, nlohmann::json::object(), {"redis-sentinel", "mysql-replicated"},
                         true, 15,
                         "Replication is asynchronous: a promoted replica may lack the newest lock, so an overlap "
                         "within the lease is the server configuration's (WAIT/semi-sync, or fencing)."));
        b.push_back(cell("partition", {"partition"}, nlohmann::json::object(), {"redis-sentinel", "mysql-replicated"},
                         true, 15,
                         "A partitioned primary of an asynchronous replica set may keep granting while another is "
                         "promoted: the server configuration's, not the client's."));
        b.push_back(cell("partition", {"partition"}, nlohmann::json::object(), {"redis-independent", "zookeeper", "etcd"},
                         false, 15,
                         "A quorum (Redlock majority, ZAB, Raft) grants on one side of a partition only: no lock is "
                         "granted twice within a lease."));
        b.push_back(cell("clock-skew", {"clock-skew"}, {{"clock_skew_ms", "2xttl"}},
                         {"redis-single", "redis-sentinel", "redis-independent", "mysql-single", "mysql-replicated"},
                         true, 12,
                         "The server's wall clock jumps 2 x the TTL: a server that expires leases by its wall clock "
                         "drops a held lock early, the server configuration's (keep its clock slewed, not "
                         "stepped). Not on ZooKeeper and etcd, whose leases follow the monotonic clock (below)."));
        b.push_back(cell("clock-skew", {"clock-skew"}, {{"clock_skew_ms", "2xttl"}}, {"zookeeper", "etcd"}, false, 12,
                         "ZooKeeper and etcd time sessions and leases on the monotonic clock, not the wall clock: a "
                         "wall-clock jump drops no held lock."));
        return b;
    }();
    return battery;
}

const std::vector<CertifyFamily>& certify_families() {
    static const std::vector<CertifyFamily> families = [] {
        const nlohmann::json common = {{"ttl_ms", 1000}, {"hold_ms", {100, 400}}, {"think_ms", {0, 10}}};
        const auto with = [&](nlohmann::json extra) {
            nlohmann::json base = common;
            base.update(extra);
            return base;
        };
        return std::vector<CertifyFamily>{
            {"redis-single", "redis-set-nx-px", common},
            {"redis-sentinel", "redis-set-nx-px", with({{"ttl_ms", 2000}})},
            {"redis-independent", "redlock", with({{"ttl_ms", 3000}, {"hold_ms", {500, 1000}}, {"server_timeout_ms", 100}})},
            {"mysql-single", "mysql-table-record", common},
            {"mysql-replicated", "mysql-table-record", common},
            {"zookeeper", "zk-sequential", common},
            {"etcd", "etcd-lease-lock", with({{"ttl_ms", 2000}})},
        };
    }();
    return families;
}

const CertifyFamily& certify_family(const std::string& topology) {
    std::string known;
    for (const auto& f : certify_families()) {
        if (f.topology == topology) return f;
        known += (known.empty() ? "" : ", ") + f.topology;
    }
    throw SpecError(fmt::format("certify: --topology '{}' has no battery; the topologies are {}", topology, known));
}

std::vector<CertifyCell> cells_for(const std::string& topology) {
    certify_family(topology);  // throws for an unknown one
    std::vector<CertifyCell> cells;
    for (const auto& c : certify_battery())
        if (std::find(c.families.begin(), c.families.end(), topology) != c.families.end()) cells.push_back(c);
    return cells;
}

std::vector<CertifyCell> select_cells(const std::vector<CertifyCell>& cells, const std::string& names) {
    std::set<std::string> wanted;
    for (std::size_t start = 0; start <= names.size();) {
        const auto comma = std::min(names.find(',', start), names.size());
        if (comma > start) wanted.insert(names.substr(start, comma - start));
        start = comma + 1;
    }
    std::string known;
    for (const auto& c : cells) known += (known.empty() ? "" : ", ") + c.name;
    for (const auto& name : wanted)
        if (std::none_of(cells.begin(), cells.end(), [&](const CertifyCell& c) { return c.name == name; }))
            throw SpecError(fmt::format("certify: --cells: '{}' is no cell of this topology; its cells are {}", name,
                                        known));
    if (wanted.empty()) throw SpecError("certify: --cells names no cell; the cells are " + known);
    std::vector<CertifyCell> selected;
    for (const auto& c : cells)
        if (wanted.count(c.name)) selected.push_back(c);
    return selected;
}

nlohmann::json ttl_scaled_fields(const CertifyCell& cell, std::int64_t ttl_ms, std::int64_t family_ttl_ms) {
    nlohmann::json fields = nlohmann::json::object();
    if (ttl_ms <= family_ttl_ms || family_ttl_ms <= 0) return fields;
    const double factor = static_cast<double>(ttl_ms) / static_cast<double>(family_ttl_ms);
    constexpr std::int64_t kDefaultOpTimeoutMs = 10'000;  // Spec::op_timeout_ms
    fields["op_timeout_ms"] = std::max(kDefaultOpTimeoutMs, 3 * ttl_ms);
    fields["time_limit_s"] = cell.time_limit_s * factor;
    if (const auto it = cell.settings.find("server_timeout_ms"); it != cell.settings.end() && it->is_number())
        fields["server_timeout_ms"] = static_cast<std::int64_t>(it->get<double>() * factor);
    return fields;
}

std::string expectation_words(const Expectation& expect) {
    std::string words = expect.valid.value_or("");
    if (!expect.lacks.empty()) {
        words += words.empty() ? "no " : ", no ";
        for (std::size_t i = 0; i < expect.lacks.size(); ++i) words += (i ? ", " : "") + expect.lacks[i];
    }
    return words.empty() ? "any" : words;
}

}  // namespace lockcheck
