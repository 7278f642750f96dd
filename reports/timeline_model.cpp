#include "reports/timeline_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_set>

namespace lockcheck {
namespace {

/// Per-process state while scanning the history.
struct ProcessState {
    std::optional<Op> acquire_invoke;
    std::int64_t acquire_invoke_pos = kNoOp;
    std::optional<HoldBar> open_hold;
};

std::string outcome_of(const Op& done) {
    if (done.type == OpType::Ok) return "ok";
    if (done.type == OpType::Info) return "info";
    return done.error && *done.error == err::kHeld ? "held" : "fail";
}

/// Keeps at most `cap` items: every item `keep` says must stay, then evenly spaced others.
template <typename T, typename Keep>
std::vector<T> thin(std::vector<T> items, std::size_t cap, Keep keep) {
    if (items.size() <= cap) return items;
    std::vector<T> kept;
    std::vector<T> rest;
    for (auto& item : items) (keep(item) ? kept : rest).push_back(std::move(item));
    if (kept.size() < cap && !rest.empty()) {
        const std::size_t room = cap - kept.size();
        const double stride = static_cast<double>(rest.size()) / static_cast<double>(room);
        for (std::size_t i = 0; i < room; ++i) kept.push_back(std::move(rest[static_cast<std::size_t>(static_cast<double>(i) * stride)]));
    }
    return kept;
}

/// Scans lock ops into hold bars and acquire marks, per key.
std::map<std::string, KeyTimeline> scan_locks(const History& history, const std::vector<std::int64_t>& partner,
                                              std::int64_t end_ns) {
    std::map<std::string, KeyTimeline> keys;
    std::map<int, ProcessState> states;
    std::map<std::string, std::set<int>> lanes;
    for (std::size_t p = 0; p < history.size(); ++p) {
        const Op& op = history[p];
        if (op.is_nemesis() || (op.f != fn::kAcquire && op.f != fn::kRelease)) continue;
        lanes[op.key].insert(op.process);
        auto& state = states[op.process];
        auto& timeline = keys[op.key];
        if (op.f == fn::kAcquire && op.is_invoke()) {
            const auto done = partner[p];
            timeline.attempts.push_back(
                {op.process, op.time, op.index, done == kNoOp ? "open" : outcome_of(history[static_cast<std::size_t>(done)])});
            state.acquire_invoke = op;
            continue;
        }
        if (op.f == fn::kAcquire && op.type == OpType::Ok) {
            if (state.open_hold) {  // a second acquire without a release: close the first here
                state.open_hold->end_ns = op.time;
                keys[op.key].holds.push_back(*state.open_hold);
            }
            HoldBar bar;
            bar.process = op.process;
            bar.start_ns = op.time;
            bar.end_ns = end_ns;
            bar.acquire_op = op.index;
            bar.owner = op.owner.value_or("");
            bar.token = op.token;
            if (state.acquire_invoke && state.acquire_invoke->ttl_ms)
                bar.lease_end_ns = state.acquire_invoke->time + *state.acquire_invoke->ttl_ms * 1'000'000;
            state.open_hold = bar;
            continue;
        }
        if (op.f == fn::kRelease && !op.is_invoke() && state.open_hold) {
            state.open_hold->end_ns = op.time;
            state.open_hold->release_op = op.index;
            state.open_hold->released = op.type == OpType::Ok;
            timeline.holds.push_back(*state.open_hold);
            state.open_hold.reset();
        }
    }
    for (auto& [process, state] : states)
        if (state.open_hold) {
            const auto key = history[static_cast<std::size_t>(state.open_hold->acquire_op)].key;
            keys[key].holds.push_back(*state.open_hold);
        }
    for (auto& [key, timeline] : keys) {
        timeline.key = key;
        timeline.processes.assign(lanes[key].begin(), lanes[key].end());
        std::sort(timeline.holds.begin(), timeline.holds.end(),
                  [](const HoldBar& a, const HoldBar& b) { return a.start_ns < b.start_ns; });
        timeline.holds_total = timeline.holds.size();
        timeline.attempts_total = timeline.attempts.size();
    }
    return keys;
}

std::vector<FaultBand> scan_faults(const History& history, std::int64_t end_ns) {
    std::map<std::int64_t, FaultBand> bands;
    for (const Op& op : history) {
        if (!op.is_nemesis() || !op.value.is_object() || !op.value.contains("id")) continue;
        const auto id = op.value["id"].get<std::int64_t>();
        auto& band = bands[id];
        band.id = id;
        if (op.value.contains("fault") && op.value["fault"].is_string()) band.kind = op.value["fault"].get<std::string>();
        if (op.value.contains("targets") && op.value["targets"].is_array()) {
            band.targets.clear();
            for (const auto& t : op.value["targets"]) band.targets.push_back(t.is_string() ? t.get<std::string>() : t.dump());
        }
        if (op.f == fn::kStartFault && op.is_invoke()) {
            band.start_ns = op.time;
            band.start_op = op.index;
            band.end_ns = end_ns;
        } else if (op.f == fn::kStopFault && !op.is_invoke()) {
            band.end_ns = op.time;
            band.end_op = op.index;
        }
    }
    std::vector<FaultBand> out;
    for (auto& [id, band] : bands) out.push_back(std::move(band));
    return out;
}

ViolationMark mark_of(const History& history, const CheckerResult& checker, const Violation& v, std::int64_t end_ns) {
    ViolationMark mark{checker.name, v.kind, v.description, v.ops, "", {}, 0, 0, {}, !checker.counts_toward_verdict};
    std::set<int> processes;
    std::vector<std::int64_t> times;
    for (auto index : v.ops) {
        if (index < 0 || static_cast<std::size_t>(index) >= history.size()) continue;
        const Op& op = history[static_cast<std::size_t>(index)];
        times.push_back(op.time);
        if (!op.is_nemesis()) processes.insert(op.process);
        if (mark.key.empty()) mark.key = op.key;
    }
    if (v.details.contains("key") && v.details["key"].is_string()) mark.key = v.details["key"].get<std::string>();
    mark.processes.assign(processes.begin(), processes.end());
    if (!times.empty()) {
        mark.start_ns = *std::min_element(times.begin(), times.end());
        mark.end_ns = *std::max_element(times.begin(), times.end());
    }
    // An overlap cites [earlier invoke, earlier ok, later ok, earlier release?]: the overlap itself
    // runs from the later ok for overlap_ms (else to the earlier release, or the end of the history).
    if ((v.kind == "overlap-within-lease" || v.kind == "overlap-lease-expired") && times.size() >= 3) {
        mark.start_ns = times[2];
        mark.end_ns = times.size() >= 4 ? times[3] : end_ns;
        if (v.details.contains("overlap_ms") && v.details["overlap_ms"].is_number())  // the later holder may leave first
            mark.end_ns = mark.start_ns + static_cast<std::int64_t>(v.details["overlap_ms"].get<double>() * 1e6);
    }
    return mark;
}

std::vector<LatencyPoint> latency_points(const History& history, const std::vector<std::int64_t>& partner) {
    std::vector<LatencyPoint> points;
    for (std::size_t p = 0; p < history.size(); ++p) {
        const Op& op = history[p];
        if (!op.is_invoke() || op.is_nemesis() || partner[p] == kNoOp) continue;
        const Op& done = history[static_cast<std::size_t>(partner[p])];
        points.push_back({op.time, static_cast<double>(done.time - op.time) / 1e6, op.f,
                          std::string(to_string(done.type)), op.index});
    }
    return points;
}

std::vector<ThroughputBucket> throughput(const History& history, std::int64_t start_ns, std::int64_t bucket_ns,
                                         std::size_t buckets) {
    std::vector<ThroughputBucket> out(buckets);
    for (std::size_t i = 0; i < buckets; ++i) out[i].start_ns = start_ns + static_cast<std::int64_t>(i) * bucket_ns;
    for (const Op& op : history) {
        if (op.is_invoke() || op.is_nemesis()) continue;
        auto i = static_cast<std::size_t>((op.time - start_ns) / bucket_ns);
        auto& b = out[std::min(i, buckets - 1)];
        (op.type == OpType::Ok ? b.ok : op.type == OpType::Info ? b.info : b.fail) += 1;
    }
    return out;
}

}  // namespace

ReportModel build_report_model(const History& history, const CheckReport& report, const ReportLimits& limits) {
    ReportModel model;
    model.op_count = history.size();
    if (!history.empty()) {
        model.start_ns = std::min<std::int64_t>(0, history.front().time);
        model.end_ns = std::max(history.back().time, model.start_ns + 1);
    } else {
        model.end_ns = 1;
    }
    const auto partner = pair_ops(history);

    for (const auto& checker : report.checkers) {
        model.violations_total += checker.unlisted_violations;
        for (const auto& v : checker.violations) {
            ++model.violations_total;
            if (model.violations.size() < limits.max_violations)
                model.violations.push_back(mark_of(history, checker, v, model.end_ns));
        }
    }
    model.faults = scan_faults(history, model.end_ns);
    for (auto& mark : model.violations)
        for (const auto& band : model.faults)
            if (band.start_ns <= mark.end_ns && mark.start_ns <= band.end_ns) mark.faults.push_back(band.id);

    std::unordered_set<std::int64_t> cited;
    for (const auto& mark : model.violations)
        for (auto index : mark.ops) {
            if (!mark.advisory) cited.insert(index);
            if (model.linked_ops.size() < limits.max_linked_ops && index >= 0 &&
                static_cast<std::size_t>(index) < history.size())
                model.linked_ops[std::to_string(index)] = op_to_json(history[static_cast<std::size_t>(index)]);
        }

    auto keys = scan_locks(history, partner, model.end_ns);
    const std::size_t key_count = std::max<std::size_t>(1, keys.size());
    std::size_t holds_total = 0, attempts_total = 0, holds_drawn = 0, attempts_drawn = 0;
    for (auto& [name, timeline] : keys) {
        timeline.holds = thin(std::move(timeline.holds), limits.max_holds / key_count,
                              [&](const HoldBar& h) { return cited.count(h.acquire_op) > 0; });
        std::sort(timeline.holds.begin(), timeline.holds.end(),
                  [](const HoldBar& a, const HoldBar& b) { return a.start_ns < b.start_ns; });
        timeline.attempts = thin(std::move(timeline.attempts), limits.max_attempts / key_count,
                                 [](const AcquireMark& m) { return m.outcome == "ok"; });
        std::sort(timeline.attempts.begin(), timeline.attempts.end(),
                  [](const AcquireMark& a, const AcquireMark& b) { return a.time_ns < b.time_ns; });
        holds_total += timeline.holds_total;
        attempts_total += timeline.attempts_total;
        holds_drawn += timeline.holds.size();
        attempts_drawn += timeline.attempts.size();
        model.keys.push_back(std::move(timeline));
    }

    auto points = latency_points(history, partner);
    model.latency_total = points.size();
    model.latency = thin(std::move(points), limits.max_latency_points, [](const LatencyPoint&) { return false; });

    const std::size_t buckets = std::max<std::size_t>(1, limits.throughput_buckets);
    model.bucket_ns = std::max<std::int64_t>(1, (model.end_ns - model.start_ns) / static_cast<std::int64_t>(buckets) + 1);
    model.throughput = throughput(history, model.start_ns, model.bucket_ns, buckets);

    if (holds_drawn < holds_total)
        model.notes.push_back(fmt::format("The timeline draws {} of {} lock sessions: all that violations cite, "
                                          "and evenly spaced others.", holds_drawn, holds_total));
    if (attempts_drawn < attempts_total)
        model.notes.push_back(fmt::format("The timeline draws {} of {} acquire attempts: every granted one, and "
                                          "evenly spaced others.", attempts_drawn, attempts_total));
    if (model.latency.size() < model.latency_total)
        model.notes.push_back(fmt::format("The latency plot draws {} of {} ops, evenly spaced.", model.latency.size(),
                                          model.latency_total));
    if (model.violations.size() < model.violations_total)
        model.notes.push_back(fmt::format("Only the first {} of {} violations are marked; results.json lists them.",
                                          model.violations.size(), model.violations_total));
    return model;
}

nlohmann::json report_model_to_json(const ReportModel& m) {
    const auto ms = [&](std::int64_t ns) { return static_cast<double>(ns) / 1e6; };
    const auto opt = [](const auto& o) { return o ? nlohmann::json(*o) : nlohmann::json(nullptr); };
    nlohmann::json keys = nlohmann::json::array();
    for (const auto& k : m.keys) {
        nlohmann::json holds = nlohmann::json::array(), attempts = nlohmann::json::array();
        for (const auto& h : k.holds)
            holds.push_back({{"p", h.process}, {"t0", ms(h.start_ns)}, {"t1", ms(h.end_ns)},
                             {"lease", h.lease_end_ns ? nlohmann::json(ms(*h.lease_end_ns)) : nlohmann::json(nullptr)},
                             {"acq", h.acquire_op}, {"rel", h.release_op}, {"owner", h.owner}, {"token", opt(h.token)},
                             {"released", h.released}});
        for (const auto& a : k.attempts) attempts.push_back({{"p", a.process}, {"t", ms(a.time_ns)}, {"op", a.op}, {"o", a.outcome}});
        keys.push_back({{"key", k.key}, {"processes", k.processes}, {"holds", holds}, {"attempts", attempts},
                        {"holds_total", k.holds_total}, {"attempts_total", k.attempts_total}});
    }
    nlohmann::json faults = nlohmann::json::array();
    for (const auto& f : m.faults)
        faults.push_back({{"id", f.id}, {"kind", f.kind}, {"targets", f.targets}, {"t0", ms(f.start_ns)},
                          {"t1", ms(f.end_ns)}, {"op0", f.start_op}, {"op1", f.end_op}});
    nlohmann::json violations = nlohmann::json::array();
    for (const auto& v : m.violations)
        violations.push_back({{"checker", v.checker}, {"kind", v.kind}, {"description", v.description}, {"ops", v.ops},
                              {"key", v.key}, {"processes", v.processes}, {"t0", ms(v.start_ns)}, {"t1", ms(v.end_ns)},
                              {"faults", v.faults}, {"advisory", v.advisory}});
    nlohmann::json latency = nlohmann::json::array();
    for (const auto& p : m.latency) latency.push_back({ms(p.time_ns), p.ms, p.f, p.outcome, p.op});
    nlohmann::json tput = nlohmann::json::array();
    for (const auto& b : m.throughput) tput.push_back({ms(b.start_ns), b.ok, b.fail, b.info});
    return {{"t0", ms(m.start_ns)}, {"t1", ms(m.end_ns)}, {"ops", m.op_count}, {"keys", keys},
            {"faults", faults}, {"violations", violations}, {"violations_total", m.violations_total},
            {"latency", latency}, {"latency_total", m.latency_total}, {"bucket_ms", ms(m.bucket_ns)},
            {"throughput", tput}, {"linked_ops", m.linked_ops}, {"notes", m.notes}};
}

}  // namespace lockcheck
