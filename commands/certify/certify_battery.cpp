#include "commands/certify/certify_battery.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "checkers/liveness.hpp"
#include "core/ttl_time.hpp"
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
    e.lacks.push_back(kExpiredGrant);
    e.lacks.push_back(kRenewAfterLoss);
    // The client's classes only the servers' own record gives (checkers/server_witness.hpp).
    e.lacks.push_back(kGrantWithoutOwnKey);
    e.lacks.push_back(kRenewAfterExpiry);
    return e;
}

CertifyCell cell(std::string name, std::vector<std::string> nemesis, nlohmann::json settings,
                 std::vector<std::string> families, bool within_lease_is_server, double time_limit_s,
                 std::string reason, CellEvidence evidence, std::string shape = "contended",
                 std::string aim = "random") {
    return {std::move(name),        std::move(nemesis),  std::move(settings),
            std::move(families),    no_client_fault(within_lease_is_server),
            within_lease_is_server, time_limit_s,        std::move(reason),
            std::move(evidence),    std::move(shape),    std::move(aim)};
}

CellEvidence danger(std::string words, std::vector<std::string> counts, std::string reason) {
    return {std::move(words), std::move(counts), kDefaultEvidence, std::move(reason)};
}

const char* const kStallReason =
    "The server stops for 1.5 to 2.5 x the TTL (a fork, a slow disk) while requests queue: leases run out, and "
    "when it resumes the next owner may be granted before a holder's release arrives. A correct release removes "
    "only its own lock, so no lock is granted twice within a lease.";

// The dangers of the battery (checkers/danger_counts.hpp names the counts).
const CellEvidence kStoppedHolder = danger(
    "a holder stopped past its lease that then renewed, wrote or released", {"holders_stopped_past_lease_acted"},
    "Only a holder that wakes after its lease ran out and acts on the lock shows what the client does with a "
    "lease it lost; a pause that catches no holder, or one shorter than the lease, shows nothing.");
const CellEvidence kStoppedHolderFreeKey = danger(
    "a holder stopped past its lease that then acted on a free key, after another owner had taken and released it",
    {"holders_stopped_past_lease_acted_on_free_key"},
    "A refresh or release that does not check ownership harms only when the key is free as the holder wakes "
    "(redis-semaphore#175: a refresh re-creates the lost key); under contention someone else always holds it.");
const CellEvidence kRenewInFlight = danger(
    "a holder stopped with its renew in flight past its lease, or a renew in flight across another owner's grant",
    {"holders_stopped_past_lease_acted", "renews_across_grant"},
    "A renew sent just before the holder stops reaches the server, or its answer the holder, after the lease ran "
    "out and another owner was granted: a refresh that re-creates a lost key, or a client that trusts a late "
    "renew, acts on a lock it lost (redis-semaphore#175). A holder stopped at a random moment is rarely renewing.");
const CellEvidence kStoppedWaiter = danger(
    "a waiter stopped past its lease with its acquire in flight, then answered", {"waiters_stopped_past_lease"},
    "A waiter whose lease or session ran out while it waited must not take a grant it can no longer hold: a "
    "library that returns from its wait without checking its own key still exists does (etcd-io/etcd#11456). "
    "A random pause rarely catches an acquire in flight.");
const CellEvidence kStoppedClient = danger(
    "a client stopped past its lease, holding (then acted) or waiting with its acquire in flight (then answered)",
    {"holders_stopped_past_lease_acted", "waiters_stopped_past_lease"},
    "A GC-like pause matters when it outlasts a lease its client holds or is being granted: the client must "
    "then notice the lease is over before it acts or uses the grant.");
const CellEvidence kLateGrantDanger = danger(
    "a grant delivered with its lease already over, or held back past its lease on a free key (taken or refused)",
    {"grants_delivered_late"},
    "A reply held back longer than the lease delivers a grant the client must not use; a cell that never "
    "delivered one says nothing about late-grant or expired-grant. A client that refuses the late grant and "
    "retries met it all the same, so an acquire whose replies were held back past its lease counts whatever "
    "it answered.");
const CellEvidence kSlowGrant = danger(
    "a grant answered half a lease or more after it was asked for", {"grants_after_half_lease"},
    "A client that counts its validity from the answer instead of the request is caught only when the answer "
    "comes late enough for the difference to matter.");
const CellEvidence kCutOffHolder = danger(
    "a holder cut off past its lease that then acted", {"holders_cut_off_past_lease_acted"},
    "The cut must outlast the holder's lease and the holder must act after it, or the client's handling of a "
    "lease it cannot confirm is never tried.");
const CellEvidence kKilledClient = danger(
    "a client killed holding or with its acquire in flight, its key asked for again after that lease could have "
    "run out",
    {"clients_killed_holding_or_acquiring"},
    "A crashed client's lock must free itself when its lease runs out: only a kill that leaves a lock (or a "
    "half-made one) behind, followed by an acquire after that lease, shows whether it does. A two-step acquire "
    "(SETNX, then PEXPIRE) killed between its steps leaves a lock with no lease; a kill between attempts leaves "
    "nothing.");
const CellEvidence kClientFault = danger(
    "a fault on a client that struck while that client's lease was live", {"client_faults_during_own_lease"},
    "A client's clock jump matters only while that client holds a lease it times.");
const CellEvidence kServerFault = danger(
    "a server fault that struck while a lease was live", {"server_faults_during_lease"},
    "A server fault that strikes while no lease is live breaks no promise: the cell needs faults that catch a "
    "held lock.");
const CellEvidence kStalledQuorumNode = danger(
    "a stall of one node that struck while a lease was live", {"server_faults_during_lease"},
    "Redlock asks every node and answers within server_timeout_ms, so one stalled node of five delays no release "
    "past a lease; what the stall does is take a live lease's copy away for a while, leaving its quorum on the "
    "others: the stall must strike while a lease is live.");
const CellEvidence kStalledRelease = danger(
    "a holder released after its lease ran out during the stall, while another owner held the lock",
    {"releases_across_grant_after_lease"},
    "A stalled server lets leases run out while holders and waiters queue their requests; a plain-delete "
    "release that reaches it after another owner's grant removes that owner's lock.");

}  // namespace

const std::vector<CertifyCell>& certify_battery() {
    static const std::vector<CertifyCell> battery = [] {
        std::vector<CertifyCell> b;
        CertifyCell none{"no-faults", {}, nlohmann::json::object(), kAll, Expectation{"valid", {}, {}}, false, 8,
                         "Without faults every lease is honoured: any violation is the client's.",
                         CellEvidence{"", {}, 0,
                                      "No danger: the cell checks the client's plain use of the lock, and is "
                                      "evidence by being run.", 1}};
        b.push_back(std::move(none));
        b.push_back(cell("pause-holder", {"pause-holder"}, {{"nemesis_gap_ms", {300, 800}}}, kAll, false, 12,
                         "A holder stopped past its lease overlaps the next holder: overlap-lease-expired, which "
                         "every lease lock shows and fencing fixes. The lock itself must still never be granted "
                         "twice within a lease, nor a lost lock renewed.", kStoppedHolder));
        // Long pauses (the spec's default, kept where a family's base shortens them): the key must be taken and
        // released by another owner, who thinks 1 to 2 s first, while the holder sleeps past its lease.
        b.push_back(cell("pause-holder-sparse", {"pause-holder"},
                         {{"nemesis_gap_ms", {300, 800}}, {"fault_duration_ms", {"1.5xttl", "2.5xttl"}}}, kAll, false,
                         20,
                         "A holder stopped past its lease wakes to a free key (another owner took it and released "
                         "it): its next renew must fail and its release must remove nothing, so no renew-after-loss; "
                         "the overlap with the owner in between is overlap-lease-expired, which fencing fixes.",
                         kStoppedHolderFreeKey, "sparse"));
        b.push_back(cell("pause-renewing", {"pause-client"}, {{"nemesis_gap_ms", {300, 800}}}, kAll, false, 12,
                         "A holder stopped just after it sent a renew: the renew is in flight across its lease's end "
                         "and the next owner's grant. A correct client's renew then fails (or, answered ok, is "
                         "never trusted past the lease it asked for), so no renew-after-loss.",
                         kRenewInFlight, "contended", "after-renew-sent"));
        b.push_back(cell("pause-waiter", {"pause-client"}, {{"nemesis_gap_ms", {300, 800}}}, kAll, false, 20,
                         "A waiter stopped with its acquire in flight, past its lease or session: a grant it is "
                         "answered after that must be one it can still hold (checked against the server, or "
                         "refused as late), so no late-grant and no lock granted twice within a lease.",
                         kStoppedWaiter, "sparse", "waiter-in-acquire"));
        b.push_back(cell("pause-client", {"pause-client"}, {{"nemesis_gap_ms", {300, 800}}}, kAll, false, 20,
                         "A GC-like pause of any client, waiting or holding: a waiter whose grant arrives after its "
                         "lease ended must not use it (late-grant), and a holder must not renew a lost lock.", kStoppedClient));
        b.push_back(cell("slow-reply", {"slow-reply"},
                         {{"slow_reply_ms", "1.5xttl"},
                          {"server_timeout_ms", 6000},
                          {"op_timeout_ms", 20000},
                          {"fault_duration_ms", {8000, 9000}},
                          {"nemesis_gap_ms", {200, 400}}},
                         kAll, false, 20,
                         "Replies to one worker arrive 1.5 x the TTL late for 8 to 9 s, in a sparse workload so "
                         "that its acquires are granted: a grant that arrives after its lease ended must be refused "
                         "by the client (it knows when it asked), so no late-grant and no expired-grant.",
                         kLateGrantDanger, "sparse"));
        // Every node: a client talks to one endpoint of several (etcd, ZooKeeper) or to a quorum (Redlock), so a
        // delay of one node picked at random often slows none of its grants.
        b.push_back(cell("delay", {"delay"},
                         {{"delay_ms", "0.6xttl"}, {"delay_nodes", "every"}, {"server_timeout_ms", 4000}}, kAll, false,
                         12,
                         "Every packet to and from every node is late by 0.6 x the TTL each way: a grant arrives with "
                         "less than its TTL left, and a correct client counts its validity from the moment it asked.",
                         kSlowGrant));
        // A server timeout above the lease: a holder's call in flight when it is cut off then outlasts its
        // lease, as it does with a client that waits for its servers (Redlock's base answers within 100 ms).
        b.push_back(cell("client-partition", {"client-partition"},
                         {{"server_timeout_ms", 4000}, {"nemesis_gap_ms", {300, 800}}}, kAll, false, 12,
                         "One client is cut off from the servers while it runs: its lease expires on the servers; "
                         "it must neither act on a grant it cannot confirm in time nor revive the lock later.", kCutOffHolder));
        b.push_back(cell("client-clock-skew", {"client-clock-skew"}, {{"nemesis_gap_ms", {300, 800}}}, kAll, false, 12,
                         "The client's wall clock jumps: a correct client times its lease with a monotonic clock, "
                         "so a jump changes nothing it decides.", kClientFault, "contended", "holder-clock"));
        // A crashed client, no other fault: a correct client's lock is free again once its lease runs out. A kill
        // needs no duration (the dead stay dead): short ones leave room for more kills.
        CertifyCell kill_client = cell(
            "kill-client", {"kill-holder"}, {{"nemesis_gap_ms", {500, 1500}}, {"fault_duration_ms", {100, 200}}}, kAll,
            false, 12,
            "A client is killed (SIGKILL: an OOM kill, a crash) while it holds the lock or half-way through "
            "acquiring it: the lock it leaves must free itself when its lease runs out, so no stuck-lock (a lock "
            "told held a whole lease or more past every lease it could have had; a recipe that sets the lease in a "
            "second step leaves one with none), and no lock granted twice within a lease.",
            kKilledClient, "contended", "acquire-in-flight");
        kill_client.expect.lacks.push_back(kStuckLock);
        b.push_back(std::move(kill_client));
        const nlohmann::json stall = {{"server_timeout_ms", 8000}, {"op_timeout_ms", 20000}, {"nemesis_gap_ms", {500, 1000}}};
        b.push_back(cell("pause-node", {"pause-node"}, stall,
                         {"redis-single", "mysql-single", "mysql-replicated", "zookeeper", "etcd"}, false, 12,
                         kStallReason, kStalledRelease, "contended", "stall-while-held"));
        b.push_back(cell("pause-node", {"pause-node"}, stall, {"redis-sentinel"}, true, 12,
                         "A stalled primary (a fork, a slow disk) lets leases run out, and Sentinel may promote a "
                         "replica that lacks the newest lock: an overlap within the lease is the server "
                         "configuration's; a release that removes another owner's lock is the client's.",
                         kStalledRelease, "contended", "stall-primary-while-held"));
        b.push_back(cell("pause-node", {"pause-node"}, {{"nemesis_gap_ms", {500, 1000}}}, {"redis-independent"}, false,
                         12, kStallReason, kStalledQuorumNode, "contended", "stall-while-held"));
        b.push_back(cell("kill-restart-immediate", {"kill-restart"}, {{"restart_delay_ms", 0}},
                         {"redis-single", "redis-sentinel", "redis-independent", "mysql-single"}, true, 12,
                         "A server without persistence restarts empty at once and grants a lock its holder still "
                         "holds: overlap-within-lease is the server configuration's (enable persistence, or "
                         "restart it only after the TTL), not the client's.", kServerFault));
        b.push_back(cell("kill-restart-immediate", {"kill-restart"}, {{"restart_delay_ms", 0}},
                         {"mysql-replicated", "zookeeper", "etcd"}, false, 12,
                         "A replicated, durable service survives one node's crash-restart: no lock is granted twice "
                         "within a lease.", kServerFault));
        b.push_back(cell("kill-restart-delayed", {"kill-restart"}, {{"restart_delay_ms", "1.5xttl"}}, kAll, false, 15,
                         "A killed server stays down 1.5 x the TTL: every lease it held is over when it returns, "
                         "so even an empty restart grants no lock twice within a lease.", kServerFault));
        b.push_back(cell("power-loss", {"power-loss"}, nlohmann::json::object(),
                         {"redis-single", "redis-independent"}, true, 12,
                         "Without persistence (the default), Redis loses its keys with the power: an overlap "
                         "within the lease is the server configuration's (appendfsync always, or a delayed "
                         "restart).", kServerFault, "contended", "just-granted"));
        b.push_back(cell("power-loss", {"power-loss"}, nlohmann::json::object(), {"mysql-single"}, true, 12,
                         "MariaDB at its defaults keeps not every granted lock across a power loss: GET_LOCK's "
                         "named locks live in memory only, and at sync_binlog = 0 recovery rolls back a committed "
                         "transaction whose binary-log entry the power took, even with "
                         "innodb_flush_log_at_trx_commit = 1. An overlap within the lease is the server "
                         "configuration's (sync_binlog = 1, and a lock kept in a table).", kServerFault));
        b.push_back(cell("power-loss", {"power-loss"}, nlohmann::json::object(), {"zookeeper", "etcd"}, false, 12,
                         "At the default durability (ZooKeeper forceSync, etcd fsync) a granted lock survives a "
                         "power loss.", kServerFault));
        b.push_back(cell("failover", {"failover"}, nlohmann::json::object(), {"redis-sentinel", "mysql-replicated"},
                         true, 15,
                         "Replication is asynchronous: a promoted replica may lack the newest lock, so an overlap "
                         "within the lease is the server configuration's (WAIT/semi-sync, or fencing).", kServerFault));
        b.push_back(cell("partition", {"partition"}, nlohmann::json::object(), {"redis-sentinel", "mysql-replicated"},
                         true, 15,
                         "A partitioned primary of an asynchronous replica set may keep granting while another is "
                         "promoted: the server configuration's, not the client's.", kServerFault));
        b.push_back(cell("partition", {"partition"}, nlohmann::json::object(), {"redis-independent", "zookeeper", "etcd"},
                         false, 15,
                         "A quorum (Redlock majority, ZAB, Raft) grants on one side of a partition only: no lock is "
                         "granted twice within a lease.", kServerFault));
        b.push_back(cell("clock-skew", {"clock-skew"}, {{"clock_skew_ms", "2xttl"}},
                         {"redis-single", "redis-sentinel", "redis-independent", "mysql-single", "mysql-replicated"},
                         true, 12,
                         "The server's wall clock jumps 2 x the TTL: a server that expires leases by its wall clock "
                         "drops a held lock early, the server configuration's (keep its clock slewed, not "
                         "stepped). Not on ZooKeeper and etcd, whose leases follow the monotonic clock (below).", kServerFault));
        b.push_back(cell("clock-skew", {"clock-skew"}, {{"clock_skew_ms", "2xttl"}}, {"zookeeper", "etcd"}, false, 12,
                         "ZooKeeper and etcd time sessions and leases on the monotonic clock, not the wall clock: a "
                         "wall-clock jump drops no held lock.", kServerFault));
        return b;
    }();
    return battery;
}

const std::vector<CertifyShape>& certify_shapes() {
    static const std::vector<CertifyShape> shapes{
        {"contended", nlohmann::json::object(),
         "The family's base with --workers clients that hold briefly and retry at once: the key is almost always "
         "held, so a lease that runs out is taken over at once."},
        {"sparse", {{"workers", 2}, {"hold_ms", {100, 400}}, {"think_ms", {1000, 2000}}},
         "Two clients that think 1 to 2 s between attempts: the key is often free, so a stalled holder can wake to "
         "a key another owner took and released, and a delayed grant is a grant, not a refusal."},
    };
    return shapes;
}

const std::vector<CertifyAim>& certify_aims() {
    static const std::vector<CertifyAim> aims{
        {"random", nlohmann::json::object(),
         "The fault's own moment: after a random gap, on a target it picks at random among those it strikes."},
        {"after-renew-sent", {{"pause_client_target", "renewing"}},
         "Pause a holder right after it sent a renew, so the renew is in flight across its lease's end (clients "
         "that never renew: any holder)."},
        {"waiter-in-acquire", {{"pause_client_target", "waiting"}, {"pause_client_waiting_for_ms", 0}},
         "Pause a worker whose acquire is in flight, so its lease or session can run out while it waits."},
        {"acquire-in-flight", {{"kill_holder_target", "acquiring-first"}, {"kill_holder_acquiring_wait_ms", 500}},
         "Kill a worker whose acquire has been in flight for the strike delay (10-50 ms), waiting up to 0.5 s for one "
         "before taking a holder: a two-step acquire (SETNX, then PEXPIRE) dies between its steps, a client whose "
         "acquires are quick still dies holding."},
        {"holder-clock", {{"client_clock_target", "holder"}},
         "Move the clock of a worker that holds a lock, at once, so the jump strikes while a lease it times is live "
         "(a worker chosen at random is often thinking, or waiting with nothing to time)."},
        {"stall-while-held", {{"pause_node_target", "while-held"}},
         "Stop the server only while some worker holds a lock, so its lease runs out in the stall while waiters "
         "queue their acquires (a stall that strikes between a release and the next grant catches no holder: 3 "
         "of 5 random stalls in one run of redis-setnx-expire)."},
        {"stall-primary-while-held", {{"pause_node_target", "primary-while-held"}},
         "Stop the primary while some worker holds a lock: a replica or a Sentinel stopped instead stalls no "
         "request (redis-sentinel: 4 of 9 random stalls struck a Sentinel or a replica, 1 danger a run)."},
        {"just-granted", {{"power_loss_after_grant_ms", 10}},
         "Cut the power 10 ms after a fresh grant while its holder holds: a lock seen held and then struck at "
         "random is often released by the time the power loss completes (redis-setnx-expire: 7 of 9 strikes "
         "caught a live lease, 2 of 3 in 3 runs of the battery's measure)."},
        {"lone-holder", {{"pause_client_target", "lone-holder"}},
         "Pause the holder while no other worker holds or waits, so the key would otherwise be free: when its "
         "lease runs out another owner takes the key and lets it go before the holder wakes."},
    };
    return aims;
}

const CertifyAim& certify_aim(const std::string& name) {
    for (const auto& aim : certify_aims())
        if (aim.name == name) return aim;
    throw SpecError("certify: no fault aim named '" + name + "'");
}

const CertifyShape& certify_shape(const std::string& name) {
    for (const auto& shape : certify_shapes())
        if (shape.name == name) return shape;
    throw SpecError("certify: no workload shape named '" + name + "'");
}


nlohmann::json cell_settings(const CertifyCell& cell, const CertifyFamily& family, const std::string& recipe) {
    nlohmann::json settings = cell.settings;
    for (const auto& o : family.overrides)
        if (o.cell == cell.name) settings.update(o.settings);
    for (const auto& r : certify_recipes())
        if (r.recipe == recipe)
            for (const auto& o : r.overrides)
                if (o.cell == cell.name) settings.update(o.settings);
    return settings;
}

double cell_time_limit_s(const CertifyCell& cell, const nlohmann::json& settings) {
    const auto it = settings.find("time_limit_s");
    return it != settings.end() && it->is_number() ? it->get<double>() : cell.time_limit_s;
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

void resolve_ttl_ranges(nlohmann::json& j) {
    const std::int64_t ttl_ms = j.value("ttl_ms", std::int64_t{0});
    for (const char* field : {"fault_duration_ms", "nemesis_gap_ms"}) {
        const auto range = j.find(field);
        if (range == j.end() || !range->is_array()) continue;
        for (auto& bound : *range)
            if (bound.is_string())
                if (const auto time = ttl_time_from_json(bound, false)) bound = time->resolve(ttl_ms);
    }
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
