// The settings each family and each built-in recipe gives the battery's
// cells (certify_battery.hpp): a family's base spec and its per-cell
// overrides, and a built-in recipe's own overrides, each with its reason.
// Data beside the battery (commands/certify/certify_battery.cpp), which only
// names the cells.
#include <fmt/format.h>

#include "commands/certify/certify_battery.hpp"
#include "spec/spec.hpp"

namespace lockcheck {

namespace {

/// Redlock (recipes/redlock.hpp) asks its five nodes one after another, as
/// its algorithm says, and its lease is 3 s: what one reply's delay does on
/// one node it does five times over.
std::vector<CellOverride> redlock_overrides() {
    return {
        {"delay", {{"delay_ms", "0.08xttl"}, {"fault_duration_ms", {"2.8xttl", "3.2xttl"}}},
         "Each of the five round trips of an attempt is late twice: 0.08 x the TTL each way makes an attempt take "
         "0.8 x the TTL, past half its lease with validity still left (0.6 x the TTL each way made an attempt take "
         "6 x the TTL: 1 danger in 3 runs), in one window of about 9 s per run: a grant and its release take "
         "about 5 s under the delay, so the windows of 4 to 5 s brought about one danger each."},
    };
}

/// redis-watch-multi (recipes/redis_watch_multi.hpp) takes six round trips
/// per acquire (WATCH, GET, MULTI, SET, INCR, EXEC) and three to five per
/// release, and its EXEC aborts when anyone wrote the key since its WATCH.
std::vector<CellOverride> watch_multi_overrides() {
    return {
        {"slow-reply",
         {{"workers", 1},
          {"think_ms", {0, 10}},
          {"slow_reply_ms", "1.05xttl"},
          {"fault_duration_ms", {"32xttl", "34xttl"}},
          {"op_timeout_ms", 40000},
          {"time_limit_s", 36}},
         "Every reply of an acquire is held back, so one acquire takes six times slow_reply_ms and a release "
         "three times: with 1.5 x the TTL and a window of 8 to 9 s, no acquire sent in the window was answered "
         "inside it (0 of 3 in 3 runs), and another worker's write in the 6 s between WATCH and EXEC aborted it. "
         "One worker (the key is free whenever it asks), replies just past the lease (1.05 x the TTL), and a "
         "window of 32 to 34 s in a 36 s run: each cycle of release and acquire takes about 10 s under the "
         "fault and ends in a grant delivered past its lease (expired-grant judges it with no other owner)."},
        {"delay", {{"delay_ms", "0.06xttl"}, {"fault_duration_ms", {"2.8xttl", "3.2xttl"}}},
         "Each of the six round trips of an acquire is late twice: 0.06 x the TTL each way makes an acquire take "
         "0.72 x the TTL, past half its lease with validity still left (0.6 x the TTL each way made it take 7.2 x "
         "the TTL, longer than the fault, and waiters on a held key are refused before they can be granted: 0 "
         "of 3 in 3 runs), in windows of about 3 s, each long enough for a grant and its release."},
    };
}

/// The built-in redlock (recipes/redlock.hpp) asks its five nodes one after
/// another and waits for each reply, releasing the same way.
std::vector<CellOverride> builtin_redlock_overrides() {
    return {
        {"slow-reply", {{"slow_reply_target", "idle"}},
         "A holder struck by the fault spends the whole window on its release (five replies, each 4.5 s late), "
         "so its next acquire was sent after the heal and no grant was held back (0 of 3 in 3 runs). Struck "
         "while idle, the worker sends its next acquire inside the window, on a key the sparse shape often "
         "leaves free: the first node's grant reaches it past its lease."},
    };
}

}  // namespace

const std::vector<CertifyRecipe>& certify_recipes() {
    static const std::vector<CertifyRecipe> recipes{
        {"redis-watch-multi", watch_multi_overrides()},
        {"redlock", builtin_redlock_overrides()},
    };
    return recipes;
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
            // Redlock's lease is three times redis-single's: faults of 1.2-1.6 x it (each still outlasts any
            // lease it strikes), 0.3-0.8 s apart (five independent nodes, each back within a second), so that
            // a 12 s run brings about its danger three times, not twice (docs/certify.md, "The battery").
            {"redis-independent", "redlock",
             with({{"ttl_ms", 3000},
                   {"hold_ms", {500, 1000}},
                   {"server_timeout_ms", 100},
                   {"fault_duration_ms", {"1.2xttl", "1.6xttl"}},
                   {"nemesis_gap_ms", {300, 800}}}),
             redlock_overrides()},
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

}  // namespace lockcheck
