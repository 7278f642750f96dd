#include "reports/terminal_summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace lockcheck {
namespace {

std::int64_t stat(const CheckerResult& r, const char* name) {
    auto it = r.stats.find(name);
    return it != r.stats.end() && it->is_number_integer() ? it->get<std::int64_t>() : 0;
}

double number(const nlohmann::json& j, std::initializer_list<const char*> path) {
    const nlohmann::json* at = &j;
    for (const char* step : path) {
        if (!at->is_object() || !at->contains(step)) return 0;
        at = &(*at)[step];
    }
    return at->is_number() ? at->get<double>() : 0;
}

std::string linearizability_summary(const CheckerResult& r) {
    switch (r.valid) {
        case Validity::Valid:
            return fmt::format("linearizable: {} lock ops on {} keys, certificate replayed", stat(r, "lock_ops"),
                               stat(r, "keys"));
        case Validity::Unknown:
            return fmt::format("undecided on {} of {} keys (search budget spent)", stat(r, "keys_unknown"),
                               stat(r, "keys"));
        case Validity::Invalid: break;
    }
    std::set<std::string> kinds;
    for (const auto& v : r.violations) kinds.insert(v.kind);
    std::string names;
    for (const auto& k : kinds) names += (names.empty() ? "" : ", ") + k;
    return fmt::format("not linearizable: {} findings ({})", r.violations_total(), names);
}

std::string liveness_summary(const CheckerResult& r) {
    if (number(r.stats, {"acquires", "attempts"}) == 0 && number(r.stats, {"latency_ms", "decrement", "count"}) > 0)
        return fmt::format("{:.0f} decrements, p50 {:.1f} ms / p99 {:.1f} ms",
                           number(r.stats, {"latency_ms", "decrement", "count"}),
                           number(r.stats, {"latency_ms", "decrement", "p50"}),
                           number(r.stats, {"latency_ms", "decrement", "p99"}));
    double slowest_recovery = 0;
    if (r.stats.contains("recovery") && r.stats["recovery"].contains("faults"))
        for (const auto& f : r.stats["recovery"]["faults"])
            if (f.contains("recovery_ms") && f["recovery_ms"].is_number())
                slowest_recovery = std::max(slowest_recovery, f["recovery_ms"].get<double>());
    std::string conflicts;
    if (r.stats.contains("acquires") && r.stats["acquires"].contains("conflict_rate"))
        conflicts = fmt::format(" (conflict rate {:.1f}%)", 100 * number(r.stats, {"acquires", "conflict_rate"}));
    return fmt::format("{:.1f}% of acquires granted{}, acquire p50 {:.1f} ms / p99 {:.1f} ms, longest stuck lock "
                       "{:.0f} ms, slowest recovery after a fault {:.0f} ms",
                       100 * number(r.stats, {"acquires", "success_rate"}), conflicts,
                       number(r.stats, {"latency_ms", "acquire", "p50"}), number(r.stats, {"latency_ms", "acquire", "p99"}),
                       number(r.stats, {"stuck", "longest_ms"}), slowest_recovery);
}

}  // namespace

std::string checker_summary(const CheckerResult& r) {
    if (r.name == "linearizability") return linearizability_summary(r);
    if (r.name == "liveness") return liveness_summary(r);
    if (r.name == "mutual-exclusion")
        return fmt::format("{} overlaps ({} within lease, {} after the lease expired) in {} lock sessions{}",
                           stat(r, "overlaps"), stat(r, "within_lease"), stat(r, "lease_expired"), stat(r, "sessions"),
                           stat(r, "rolled_back") > 0
                               ? fmt::format("; {} more with a rolled-back transaction (harmless)", stat(r, "rolled_back"))
                               : "");
    if (r.name == "resource")
        return fmt::format("{} lost updates, {} stale writes accepted, {} accesses fenced, {} writes accepted{}",
                           stat(r, "lost_updates"), stat(r, "stale_writes_accepted"), stat(r, "fenced"),
                           stat(r, "writes_accepted"),
                           r.stats.contains("worker_owned") ? " (in the lock's transaction: checked by value)" : "");
    if (r.stats.contains("summary") && r.stats["summary"].is_string()) return r.stats["summary"].get<std::string>();
    return fmt::format("{} violations", r.violations_total());
}

std::string verdict_sentence(const CheckReport& report) {
    switch (report.valid) {
        case Validity::Valid:
            if (!report.checkers.empty() && report.checkers.front().name == "oversell")
                return "VALID: nothing was oversold, and the final stock matches the sales";
            return "VALID: no two clients held one lock at once, and no update was lost";
        case Validity::Unknown:
            return "UNKNOWN: " + (report.unknown_reason.empty() ? std::string("the checkers could not decide this history")
                                                                : report.unknown_reason);
        case Validity::Invalid: break;
    }
    for (const auto& c : report.checkers)
        if (c.name == "mutual-exclusion" && c.valid == Validity::Invalid)
            return "INVALID: two clients held the same lock at the same time";
    for (const auto& c : report.checkers)
        if (c.valid == Validity::Invalid && c.counts_toward_verdict)
            return "INVALID: the " + c.name + " checker found violations";
    return "INVALID";
}

std::string terminal_summary(const CheckReport& report) {
    std::string out = verdict_sentence(report) + "\n";
    for (const auto& c : report.checkers) {
        out += fmt::format("  {:<18} {:<8} {}{}\n", c.name, to_string(c.valid), checker_summary(c),
                           c.counts_toward_verdict ? "" : " (advisory: strict model without leases)");
        std::set<std::string> shown;
        for (const auto& v : c.violations) {
            if (!shown.insert(v.kind).second) continue;
            out += fmt::format("      {}: {}\n", v.kind, v.description);
        }
    }
    return out;
}

}  // namespace lockcheck
