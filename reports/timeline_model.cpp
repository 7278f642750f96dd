#include "reports/timeline_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_set>

#include "reports/lane_aggregation.hpp"
#include "reports/thinning.hpp"

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
            const Op* completion = done == kNoOp ? nullptr : &history[static_cast<std::size_t>(done)];
            timeline.attempts.push_back({op.process, op.time, op.index, completion ? completion->index : kNoOp,
                                         completion ? outcome_of(*completion) : "open"});
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

/// One group per advisory checker and kind, counting every finding (the unlisted ones of a single-kind checker too).
std::vector<AdvisoryGroup> advisory_groups(const CheckReport& report) {
    std::vector<AdvisoryGroup> groups;
    for (const auto& checker : report.checkers) {
        if (checker.counts_toward_verdict || checker.violations_total() == 0) continue;
        std::map<std::string, std::size_t> kinds;
        for (const auto& v : checker.violations) ++kinds[v.kind];
        const std::string note = checker.stats.contains("advisory") && checker.stats["advisory"].is_string()
                                     ? checker.stats["advisory"].get<std::string>()
                                     : "";
        if (kinds.empty()) kinds["finding"] = 0;
        for (const auto& [kind, n] : kinds)
            groups.push_back({checker.name, kind, kinds.size() == 1 ? checker.violations_total() : n, note});
    }
    return groups;
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

/// The model's time span, the violations it marks (those that count first,
/// so the cap never hides them behind advisory ones), the advisory groups,
/// the fault bands and which bands each violation overlaps.
void mark_violations(ReportModel& model, const History& history, const std::vector<std::int64_t>& partner,
                     const CheckReport& report, const ReportLimits& limits, const nlohmann::json& schedule) {
    if (!history.empty()) {
        model.start_ns = std::min<std::int64_t>(0, history.front().time);
        model.end_ns = std::max(history.back().time, model.start_ns + 1);
    } else {
        model.end_ns = 1;
    }
    for (bool advisory : {false, true})
        for (const auto& checker : report.checkers) {
            if (checker.counts_toward_verdict == advisory) continue;
            model.violations_total += checker.violations_total();
            for (const auto& v : checker.violations)
                if (model.violations.size() < limits.max_violations)
                    model.violations.push_back(mark_violation(history, partner, checker, v, model.end_ns));
        }
    model.advisory = advisory_groups(report);
    model.faults = scan_fault_bands(history, schedule, model.end_ns);
    for (auto& mark : model.violations)
        for (const auto& band : model.faults)
            for (const auto& span : mark.spans)
                if (band.effective() && band.start_ns <= span.end_ns && span.start_ns <= band.end_ns) {
                    mark.faults.push_back(band.id);
                    break;
                }
}

/// Links the ops the violations cite (up to the limit); returns those that
/// counting violations cite, which thinning always keeps.
std::unordered_set<std::int64_t> link_cited_ops(ReportModel& model, const History& history,
                                                const ReportLimits& limits) {
    std::unordered_set<std::int64_t> cited;
    for (const auto& mark : model.violations)
        for (auto index : mark.ops) {
            if (!mark.advisory) cited.insert(index);
            if (model.linked_ops.size() < limits.max_linked_ops && index >= 0 &&
                static_cast<std::size_t>(index) < history.size())
                model.linked_ops[std::to_string(index)] = op_to_json(history[static_cast<std::size_t>(index)]);
        }
    return cited;
}

/// How much of the timeline is drawn, for the notes.
struct DrawnCounts {
    std::size_t holds_total = 0, attempts_total = 0, holds_drawn = 0, attempts_drawn = 0;
};

/// Each key's timeline, its hold bars and acquire marks thinned to the limits.
DrawnCounts draw_keys(ReportModel& model, const History& history, const std::vector<std::int64_t>& partner,
                      const std::unordered_set<std::int64_t>& cited, const ReportLimits& limits) {
    auto keys = scan_locks(history, partner, model.end_ns);
    const std::size_t key_count = std::max<std::size_t>(1, keys.size());
    DrawnCounts counts;
    for (auto& [name, timeline] : keys) {
        timeline.holds = thin(std::move(timeline.holds), limits.max_holds / key_count,
                              [&](const HoldBar& h) { return cited.count(h.acquire_op) > 0; });
        std::sort(timeline.holds.begin(), timeline.holds.end(),
                  [](const HoldBar& a, const HoldBar& b) { return a.start_ns < b.start_ns; });
        // Granted attempts are drawn as hold bars already: keeping every one of
        // them made the page grow with the history (50k ticks, 3 MB, for 1M ops over 50 keys).
        timeline.attempts =
            thin(std::move(timeline.attempts), limits.max_attempts / key_count,
                 [&](const AcquireMark& m) { return cited.count(m.op) > 0 || cited.count(m.completion_op) > 0; });
        std::sort(timeline.attempts.begin(), timeline.attempts.end(),
                  [](const AcquireMark& a, const AcquireMark& b) { return a.time_ns < b.time_ns; });
        counts.holds_total += timeline.holds_total;
        counts.attempts_total += timeline.attempts_total;
        counts.holds_drawn += timeline.holds.size();
        counts.attempts_drawn += timeline.attempts.size();
        model.keys.push_back(std::move(timeline));
    }
    return counts;
}

/// The notes that say what the page leaves out.
void add_notes(ReportModel& model, const DrawnCounts& drawn, std::size_t lanes_total, std::size_t aggregated_keys,
               const ReportLimits& limits) {
    if (drawn.holds_drawn < drawn.holds_total)
        model.notes.push_back(
            fmt::format("The timeline draws {} of {} lock sessions: all that violations cite, "
                        "and evenly spaced others.",
                        drawn.holds_drawn, drawn.holds_total));
    if (drawn.attempts_drawn < drawn.attempts_total)
        model.notes.push_back(
            fmt::format("The timeline draws {} of {} acquire attempts: all that violations cite, "
                        "and evenly spaced others.",
                        drawn.attempts_drawn, drawn.attempts_total));
    if (aggregated_keys > 0)
        model.notes.push_back(
            fmt::format("The timeline has {} worker lanes over {} keys, more than the {} it draws at once: in {} of "
                        "the keys, only the workers a violation cites have a lane of their own and the others share "
                        "one lane (hover a bar or tick for its worker). \"Show all N lanes\" above a key's timeline "
                        "draws every worker's lane.",
                        lanes_total, model.keys.size(), limits.max_lanes, aggregated_keys));
    if (model.latency.points.size() < model.latency.total)
        model.notes.push_back(
            fmt::format("The latency plot draws {} of {} ops as points: {} of the {} slower than the "
                        "p99 ({:.1f} ms), and evenly spaced others. Its lines are quantiles over every op.",
                        model.latency.points.size(), model.latency.total, model.latency.slow_drawn,
                        model.latency.slow_total, model.latency.p99_ms));
    if (model.violations.size() < model.violations_total)
        model.notes.push_back(fmt::format("Only the first {} of {} violations are marked; results.json lists them.",
                                          model.violations.size(), model.violations_total));
}

double to_ms(std::int64_t ns) { return static_cast<double>(ns) / 1e6; }

nlohmann::json keys_to_json(const std::vector<KeyTimeline>& timelines) {
    const auto opt = [](const auto& o) { return o ? nlohmann::json(*o) : nlohmann::json(nullptr); };
    nlohmann::json keys = nlohmann::json::array();
    for (const auto& k : timelines) {
        nlohmann::json holds = nlohmann::json::array(), attempts = nlohmann::json::array();
        for (const auto& h : k.holds)
            holds.push_back(
                {{"p", h.process},
                 {"t0", to_ms(h.start_ns)},
                 {"t1", to_ms(h.end_ns)},
                 {"lease", h.lease_end_ns ? nlohmann::json(to_ms(*h.lease_end_ns)) : nlohmann::json(nullptr)},
                 {"acq", h.acquire_op},
                 {"rel", h.release_op},
                 {"owner", h.owner},
                 {"token", opt(h.token)},
                 {"released", h.released}});
        for (const auto& a : k.attempts)
            attempts.push_back({{"p", a.process}, {"t", to_ms(a.time_ns)}, {"op", a.op}, {"o", a.outcome}});
        keys.push_back({{"key", k.key},
                        {"processes", k.processes},
                        {"holds", holds},
                        {"attempts", attempts},
                        {"holds_total", k.holds_total},
                        {"attempts_total", k.attempts_total},
                        {"aggregated", k.aggregated},
                        {"own_lanes", k.own_lanes}});
    }
    return keys;
}

nlohmann::json faults_to_json(const std::vector<FaultBand>& bands) {
    nlohmann::json faults = nlohmann::json::array();
    for (const auto& f : bands)
        faults.push_back({{"id", f.id},
                          {"kind", f.kind},
                          {"targets", f.targets},
                          {"status", to_string(f.status)},
                          {"error", f.error},
                          {"ti", to_ms(f.invoke_ns)},
                          {"t0", to_ms(f.start_ns)},
                          {"t1", to_ms(f.end_ns)},
                          {"op0", f.start_op},
                          {"op1", f.end_op}});
    return faults;
}

nlohmann::json violations_to_json(const std::vector<ViolationMark>& marks) {
    nlohmann::json violations = nlohmann::json::array();
    for (const auto& v : marks) {
        nlohmann::json spans = nlohmann::json::array();
        for (const auto& s : v.spans) spans.push_back({s.process, to_ms(s.start_ns), to_ms(s.end_ns)});
        violations.push_back({{"checker", v.checker},
                              {"kind", v.kind},
                              {"description", v.description},
                              {"ops", v.ops},
                              {"key", v.key},
                              {"processes", v.processes},
                              {"shape", to_string(v.shape)},
                              {"at", to_ms(v.at_ns)},
                              {"spans", spans},
                              {"t0", to_ms(v.start_ns)},
                              {"t1", to_ms(v.end_ns)},
                              {"faults", v.faults},
                              {"advisory", v.advisory}});
    }
    return violations;
}

}  // namespace

ReportModel build_report_model(const History& history, const CheckReport& report, const ReportLimits& limits,
                               const nlohmann::json& schedule) {
    ReportModel model;
    const auto partner = pair_ops(history);
    model.op_count = history.size();
    mark_violations(model, history, partner, report, limits, schedule);
    const auto cited = link_cited_ops(model, history, limits);
    const DrawnCounts drawn = draw_keys(model, history, partner, cited, limits);

    std::size_t lanes_total = 0;
    for (const auto& key : model.keys) lanes_total += key.processes.size();
    const std::size_t aggregated_keys = aggregate_lanes(model.keys, model.violations, limits.max_lanes);

    const std::size_t buckets = std::max<std::size_t>(1, limits.throughput_buckets);
    model.bucket_ns =
        std::max<std::int64_t>(1, (model.end_ns - model.start_ns) / static_cast<std::int64_t>(buckets) + 1);
    model.throughput = throughput(history, model.start_ns, model.bucket_ns, buckets);
    model.latency =
        build_latency_model(history, partner, model.start_ns, model.bucket_ns, buckets, limits.max_latency_points);
    add_notes(model, drawn, lanes_total, aggregated_keys, limits);
    return model;
}

nlohmann::json report_model_to_json(const ReportModel& m) {
    nlohmann::json advisory = nlohmann::json::array();
    for (const auto& g : m.advisory)
        advisory.push_back({{"checker", g.checker}, {"kind", g.kind}, {"count", g.count}, {"note", g.note}});
    nlohmann::json latency = nlohmann::json::array();
    for (const auto& p : m.latency.points) latency.push_back({to_ms(p.time_ns), p.ms, p.f, p.outcome, p.op});
    nlohmann::json quantiles = nlohmann::json::array();
    for (const auto& b : m.latency.buckets)
        if (b.count > 0) quantiles.push_back({to_ms(b.start_ns), b.count, b.p50, b.p95, b.p99, b.max});
    nlohmann::json tput = nlohmann::json::array();
    for (const auto& b : m.throughput) tput.push_back({to_ms(b.start_ns), b.ok, b.fail, b.info});
    return {{"t0", to_ms(m.start_ns)},
            {"t1", to_ms(m.end_ns)},
            {"ops", m.op_count},
            {"keys", keys_to_json(m.keys)},
            {"faults", faults_to_json(m.faults)},
            {"violations", violations_to_json(m.violations)},
            {"violations_total", m.violations_total},
            {"advisory", advisory},
            {"latency", latency},
            {"latency_total", m.latency.total},
            {"latency_p99", m.latency.p99_ms},
            {"latency_slow", m.latency.slow_total},
            {"latency_quantiles", quantiles},
            {"bucket_ms", to_ms(m.bucket_ns)},
            {"throughput", tput},
            {"linked_ops", m.linked_ops},
            {"notes", m.notes}};
}

}  // namespace lockcheck
