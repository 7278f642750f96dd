#include "checkers/liveness.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "checkers/checker_names.hpp"
#include "checkers/lock_sessions.hpp"
#include "core/counted.hpp"

namespace lockcheck {
namespace {

double ms(std::int64_t ns) { return static_cast<double>(ns) / 1e6; }

struct Interval {
    std::int64_t from = 0, to = 0;
    std::int64_t first_op = kNoOp, last_op = kNoOp;  ///< positions: what opened / closed it
};

nlohmann::json acquire_figures(const History& history, const std::vector<std::int64_t>& partner) {
    std::size_t attempts = 0, ok = 0, busy = 0, failed = 0, unknown = 0, conflicts = 0;
    for (std::size_t p = 0; p < history.size(); ++p) {
        const Op& op = history[p];
        if (!op.is_invoke() || op.is_nemesis() || op.f != fn::kAcquire) continue;
        ++attempts;
        if (partner[p] == kNoOp) {
            ++unknown;
            continue;
        }
        const Op& done = history[static_cast<std::size_t>(partner[p])];
        if (done.type == OpType::Ok)
            ++ok;
        else if (done.type == OpType::Info)
            ++unknown;
        else if (done.error == err::kHeld)
            ++busy;
        else
            ++failed;
        if (done.type == OpType::Fail && done.error == err::kConflict) ++conflicts;
    }
    const std::size_t decided = ok + busy + failed;
    nlohmann::json figures = {{"attempts", attempts},
                              {"ok", ok},
                              {"busy", busy},
                              {"failed", failed},
                              {"indeterminate", unknown},
                              {"success_rate", decided ? static_cast<double>(ok) / static_cast<double>(decided) : 0.0}};
    if (conflicts > 0) {  // optimistic recipes: version races lost (counted in "failed" too)
        figures["conflicts"] = conflicts;
        figures["conflict_rate"] = static_cast<double>(conflicts) / static_cast<double>(attempts);
    }
    return figures;
}

nlohmann::json latency_figures(const History& history, const std::vector<std::int64_t>& partner) {
    std::map<std::string, std::vector<double>> by_f;
    for (std::size_t p = 0; p < history.size(); ++p) {
        const Op& op = history[p];
        if (!op.is_invoke() || op.is_nemesis() || partner[p] == kNoOp) continue;
        by_f[op.f].push_back(ms(history[static_cast<std::size_t>(partner[p])].time - op.time));
    }
    nlohmann::json out = nlohmann::json::object();
    for (auto& [f, v] : by_f) {
        std::sort(v.begin(), v.end());
        out[f] = {{"count", v.size()},
                  {"p50", percentile(v, 50)},
                  {"p95", percentile(v, 95)},
                  {"p99", percentile(v, 99)},
                  {"max", v.back()}};
    }
    return out;
}

// An acquire with a lease whose outcome is unknown (info, or no answer) may
// have taken the lock: it claims it from its invoke until that lease could
// have run out, counted from its answer (or to the end without one). A lock
// left by a client killed half-way through its acquire is then stuck only
// when it outlives the lease it asked for.
void add_indeterminate_claims(const History& history, const std::vector<std::int64_t>& partner,
                              std::unordered_map<std::string, std::vector<Interval>>& out) {
    const std::int64_t end = history.empty() ? 0 : history.back().time;
    for (std::size_t p = 0; p < history.size(); ++p) {
        const Op& op = history[p];
        if (!op.is_invoke() || op.is_nemesis() || op.f != fn::kAcquire || !op.ttl_ms) continue;
        const bool answered = partner[p] != kNoOp;
        if (answered && history[static_cast<std::size_t>(partner[p])].type != OpType::Info) continue;
        const std::int64_t to = answered ? history[static_cast<std::size_t>(partner[p])].time +
                                               static_cast<std::int64_t>(*op.ttl_ms) * 1'000'000 + kLeaseGranularityNs
                                         : end;
        out[op.key].push_back(Interval{op.time, to, static_cast<std::int64_t>(p), answered ? partner[p] : kNoOp});
    }
}

// Claims per key, merged where they overlap, in time order.
std::unordered_map<std::string, std::vector<Interval>> claims(const History& history,
                                                              const std::vector<std::int64_t>& partner) {
    std::unordered_map<std::string, std::vector<Interval>> out;
    const std::int64_t end = history.empty() ? 0 : history.back().time;
    for (const LockSession& s : extract_sessions(history, partner)) {
        // The grant takes effect somewhere between the acquire's invoke and its ok: the claim starts at the invoke.
        Interval c{history[s.acquire_invoke].time, end, static_cast<std::int64_t>(s.acquire_ok), kNoOp};
        if (s.release_invoke && partner[*s.release_invoke] != kNoOp) {
            c.last_op = partner[*s.release_invoke];
            c.to = history[static_cast<std::size_t>(c.last_op)].time;
        } else if (s.lost_at) {
            // A lost holder (killed, replaced) claims the lock until it died and, with a
            // lease, until the lease may have run out; busy answers after that are a stuck lock.
            c.last_op = static_cast<std::int64_t>(*s.lost_at);
            c.to = s.end_ns;
            if (s.ttl_ms) c.to = std::max(c.to, s.possibly_valid_until(kNoLeaseBound));
        }
        out[s.key].push_back(c);
    }
    add_indeterminate_claims(history, partner, out);
    for (auto& [key, v] : out) {
        std::sort(v.begin(), v.end(), [](const Interval& a, const Interval& b) { return a.from < b.from; });
        std::vector<Interval> merged;
        for (const Interval& c : v) {
            if (!merged.empty() && c.from <= merged.back().to) {
                if (c.to > merged.back().to) merged.back().to = c.to, merged.back().last_op = c.last_op;
            } else {
                merged.push_back(c);
            }
        }
        v = std::move(merged);
    }
    return out;
}

// Busy answers while nobody claimed the lock, grouped per gap between claims.
void stuck_figures(const History& history, const std::vector<std::int64_t>& partner, CheckerResult& result) {
    const auto claimed = claims(history, partner);
    static const std::vector<Interval> kNone;
    std::map<std::pair<std::string, std::size_t>, Interval> stretches;  // (key, gap) -> stretch
    for (std::size_t p = 0; p < history.size(); ++p) {
        const Op& op = history[p];
        if (!op.is_invoke() || op.is_nemesis() || op.f != fn::kAcquire || partner[p] == kNoOp) continue;
        const Op& done = history[static_cast<std::size_t>(partner[p])];
        if (done.type != OpType::Fail || done.error != err::kHeld) continue;
        auto it = claimed.find(op.key);
        const auto& cs = it == claimed.end() ? kNone : it->second;
        // Claims starting before the attempt completed; the last of them must end before it began.
        auto next = std::partition_point(cs.begin(), cs.end(), [&](const Interval& c) { return c.from < done.time; });
        if (next != cs.begin() && (next - 1)->to > op.time) continue;
        const auto gap = static_cast<std::size_t>(next - cs.begin());
        auto [s, fresh] = stretches.try_emplace({op.key, gap},
                                                Interval{op.time, done.time, static_cast<std::int64_t>(p), partner[p]});
        if (!fresh) {
            s->second.to = std::max(s->second.to, done.time);
            s->second.last_op = partner[p];
        }
    }
    std::map<std::string, std::int64_t> longest_lease;  // key -> the longest ttl_ms an acquire asked for
    for (const Op& op : history)
        if (op.is_invoke() && op.f == fn::kAcquire && op.ttl_ms)
            longest_lease[op.key] = std::max<std::int64_t>(longest_lease[op.key], *op.ttl_ms);
    std::map<std::string, std::pair<Interval, std::size_t>> longest;  // key -> (stretch, gap)
    for (const auto& [where, s] : stretches) {
        auto [it, fresh] = longest.try_emplace(where.first, s, where.second);
        if (!fresh && s.to - s.from > it->second.first.to - it->second.first.from) it->second = {s, where.second};
    }
    double longest_ms = 0;
    nlohmann::json per_key = nlohmann::json::object();
    for (const auto& [key, entry] : longest) {
        const auto& [s, gap] = entry;
        Violation v{kStuckLock, {}, "", {{"key", key}, {"stuck_ms", ms(s.to - s.from)}}};
        if (const auto lease = longest_lease.find(key); lease != longest_lease.end()) v.details["lease_ms"] = lease->second;
        const auto& cs = claimed.count(key) ? claimed.at(key) : kNone;
        if (gap > 0 && cs[gap - 1].last_op != kNoOp)
            v.ops.push_back(history[static_cast<std::size_t>(cs[gap - 1].last_op)].index);
        v.ops.push_back(history[static_cast<std::size_t>(s.first_op)].index);
        v.ops.push_back(history[static_cast<std::size_t>(s.last_op)].index);
        v.description = fmt::format(
            "key '{}': acquires were told the lock was held for {:.1f} ms while no holder "
            "claimed it (stuck lock)",
            key, ms(s.to - s.from));
        per_key[key] = ms(s.to - s.from);
        longest_ms = std::max(longest_ms, ms(s.to - s.from));
        result.violations.push_back(std::move(v));
    }
    result.stats["stuck"] = {
        {"stretches", stretches.size()}, {"longest_ms", longest_ms}, {"longest_per_key_ms", per_key}};
}

nlohmann::json recovery_figures(const History& history) {
    std::vector<std::pair<std::int64_t, std::int64_t>> acquired;  // (time, index) of acquire oks
    for (const Op& op : history)
        if (op.type == OpType::Ok && !op.is_nemesis() && op.f == fn::kAcquire) acquired.emplace_back(op.time, op.index);
    std::sort(acquired.begin(), acquired.end());
    nlohmann::json faults = nlohmann::json::array();
    double worst = 0;
    std::size_t unrecovered = 0;
    for (const Op& op : history) {
        if (!op.is_nemesis() || op.is_invoke() || op.f != fn::kStopFault) continue;
        nlohmann::json f = {{"stop_op", op.index}, {"fault", nullptr}, {"id", nullptr}};
        if (op.value.is_object()) {
            if (op.value.contains("fault")) f["fault"] = op.value["fault"];
            if (op.value.contains("id")) f["id"] = op.value["id"];
        }
        if (op.value.is_object() && op.value.contains("restart_ms")) f["restart_ms"] = op.value["restart_ms"];
        auto next = std::lower_bound(acquired.begin(), acquired.end(), std::make_pair(op.time, std::int64_t{-1}));
        if (next == acquired.end()) {
            ++unrecovered;
            f["next_acquire_op"] = nullptr;
            f["recovery_ms"] = nullptr;
        } else {
            f["next_acquire_op"] = next->second;
            f["recovery_ms"] = ms(next->first - op.time);
            worst = std::max(worst, ms(next->first - op.time));
        }
        faults.push_back(std::move(f));
    }
    return {{"faults", faults}, {"max_recovery_ms", worst}, {"unrecovered", unrecovered}};
}

/// One node-not-restarted finding per line of a stop-fault's "not_restarted".
void restart_findings(const History& history, CheckerResult& result) {
    std::int64_t count = 0;
    for (const Op& op : history) {
        if (!op.is_nemesis() || op.is_invoke() || op.f != fn::kStopFault || !op.value.is_object()) continue;
        const auto it = op.value.find("not_restarted");
        if (it == op.value.end() || !it->is_array()) continue;
        for (const auto& line : *it) {
            if (!line.is_string()) continue;
            nlohmann::json details = {{"fault", op.value.value("fault", "")}};
            result.violations.push_back(Violation{kNodeNotRestarted, {op.index}, line.get<std::string>(), details});
            ++count;
        }
    }
    result.stats["recovery"]["nodes_not_restarted"] = count;
}

}  // namespace

double percentile(const std::vector<double>& sorted, double p) {
    const auto n = static_cast<double>(sorted.size());
    const auto rank = static_cast<std::size_t>(std::max(1.0, std::ceil(p / 100.0 * n)));
    return sorted[std::min(rank, sorted.size()) - 1];
}

CheckerResult check_liveness(const History& history, const std::vector<std::int64_t>& partner) {
    CheckerResult result;
    result.name = std::string(checker_name::kLiveness);
    result.stats["acquires"] = acquire_figures(history, partner);
    result.stats["latency_ms"] = latency_figures(history, partner);
    stuck_figures(history, partner, result);
    result.stats["recovery"] = recovery_figures(history);
    restart_findings(history, result);
    result.valid = Validity::Valid;  // figures and findings, never a verdict
    return result;
}

namespace {

/// The op a history without acquires mostly consists of (a workload that is
/// not a lock: decrement, generate-id), by its latency count; "" for none.
std::string busiest_op(const nlohmann::json& latency) {
    std::string busiest;
    double most = 0;
    if (latency.is_object())
        for (const auto& [f, figures] : latency.items())
            if (const double count = stat_number(figures, {"count"}); count > most) {
                most = count;
                busiest = f;
            }
    return busiest;
}

/// ", slowest recovery after a fault N ms" (and how many faults no acquire
/// followed), or nothing when no fault ended.
std::string recovery_words(const nlohmann::json& s) {
    if (!s.contains("recovery") || !s["recovery"].contains("faults") || s["recovery"]["faults"].empty()) return "";
    double slowest = 0;
    std::int64_t recovered = 0;
    for (const auto& f : s["recovery"]["faults"])
        if (f.contains("recovery_ms") && f["recovery_ms"].is_number()) {
            slowest = std::max(slowest, f["recovery_ms"].get<double>());
            ++recovered;
        }
    const auto unrecovered = static_cast<std::int64_t>(s["recovery"]["faults"].size()) - recovered;
    std::string out = recovered > 0 ? fmt::format(", slowest recovery after a fault {:.0f} ms", slowest) : "";
    if (unrecovered > 0) out += fmt::format(", no acquire granted after {}", counted(unrecovered, "fault"));
    if (const auto down = static_cast<std::int64_t>(stat_number(s, {"recovery", "nodes_not_restarted"})); down > 0)
        out += fmt::format(", {} not restarted after a fault", counted(down, "node"));
    return out;
}

std::string liveness_summary(const CheckerResult& r) {
    const auto& s = r.stats;
    if (const auto f = busiest_op(s.value("latency_ms", nlohmann::json()));
        stat_number(s, {"acquires", "attempts"}) == 0 && !f.empty())
        return fmt::format("{}, p50 {:.1f} ms / p99 {:.1f} ms",
                           counted(static_cast<std::int64_t>(stat_number(s, {"latency_ms", f, "count"})), f),
                           stat_number(s, {"latency_ms", f, "p50"}), stat_number(s, {"latency_ms", f, "p99"}));
    std::string conflicts;
    if (s.contains("acquires") && s["acquires"].contains("conflict_rate"))
        conflicts = fmt::format(" (conflict rate {:.1f}%)", 100 * stat_number(s, {"acquires", "conflict_rate"}));
    const auto count = [&](std::string_view field) {
        return static_cast<std::int64_t>(stat_number(s, {"acquires", field}));
    };
    return fmt::format(
        "{}: {} granted, {} refused, {} unknown{}, acquire p50 {:.1f} ms / p99 {:.1f} ms, longest "
        "stuck lock {:.0f} ms{}",
        counted(count("attempts"), "acquire"), count("ok"), count("busy") + count("failed"), count("indeterminate"),
        conflicts, stat_number(s, {"latency_ms", "acquire", "p50"}), stat_number(s, {"latency_ms", "acquire", "p99"}),
        stat_number(s, {"stuck", "longest_ms"}), recovery_words(s));
}

}  // namespace

const CheckerDescriptor& liveness_checker() {
    static const CheckerDescriptor descriptor{
        checker_name::kLiveness,
        "progress and latency figures, stuck locks and recovery after faults (never a verdict)", applies_always,
        check_liveness, liveness_summary};
    return descriptor;
}

}  // namespace lockcheck
