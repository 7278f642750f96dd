#include "reports/violation_marks.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "checkers/mutual_exclusion.hpp"
#include "checkers/resource.hpp"

namespace lockcheck {
namespace {

const Op* op_at(const History& history, std::int64_t index) {
    return index >= 0 && static_cast<std::size_t>(index) < history.size() ? &history[static_cast<std::size_t>(index)]
                                                                          : nullptr;
}

int integer_detail(const Violation& v, const char* field, int fallback) {
    return v.details.contains(field) && v.details[field].is_number_integer() ? v.details[field].get<int>() : fallback;
}

/// An overlap cites [earlier invoke, earlier ok, later ok, earlier release?]: both held the lock
/// from the later ok for overlap_ms (else until the earlier release, or the end of the history).
void mark_overlap(const History& history, const Violation& v, std::int64_t end_ns, ViolationMark& mark) {
    const Op* earlier = op_at(history, v.ops[1]);
    const Op* later = op_at(history, v.ops[2]);
    if (!earlier || !later) return;
    mark.shape = MarkShape::Overlap;
    mark.at_ns = later->time;
    std::int64_t until = v.ops.size() >= 4 && op_at(history, v.ops[3]) ? op_at(history, v.ops[3])->time : end_ns;
    if (v.details.contains("overlap_ms") && v.details["overlap_ms"].is_number())  // the later holder may leave first
        until = later->time + static_cast<std::int64_t>(v.details["overlap_ms"].get<double>() * 1e6);
    for (int process :
         {integer_detail(v, "first_process", earlier->process), integer_detail(v, "second_process", later->process)})
        mark.spans.push_back({process, later->time, until});
}

/// A lost update or stale write: the write that was accepted is the latest write the finding cites.
void mark_write(const History& history, const std::vector<std::int64_t>& partner, const Violation& v,
                ViolationMark& mark) {
    const Op* write = nullptr;
    for (auto index : v.ops)
        if (const Op* op = op_at(history, index);
            op && op->f == fn::kWrite && !op->is_invoke() && (!write || op->index > write->index))
            write = op;
    if (!write) return;
    const auto invoke = partner[static_cast<std::size_t>(write->index)];
    mark.shape = MarkShape::Write;
    mark.at_ns = write->time;
    mark.spans.push_back(
        {write->process, invoke == kNoOp ? write->time : history[static_cast<std::size_t>(invoke)].time, write->time});
}

/// Anything else: each worker's cited ops, from its first to its last.
void mark_other(const History& history, const Violation& v, ViolationMark& mark) {
    std::map<int, LaneSpan> by_process;
    for (auto index : v.ops) {
        const Op* op = op_at(history, index);
        if (!op) continue;
        mark.at_ns = std::max(mark.at_ns, op->time);
        if (op->is_nemesis()) continue;
        auto [it, fresh] = by_process.try_emplace(op->process, LaneSpan{op->process, op->time, op->time});
        it->second.start_ns = std::min(it->second.start_ns, op->time);
        it->second.end_ns = std::max(it->second.end_ns, op->time);
    }
    for (const auto& [process, span] : by_process) mark.spans.push_back(span);
}

}  // namespace

std::string_view to_string(MarkShape shape) {
    switch (shape) {
        case MarkShape::Overlap: return "overlap";
        case MarkShape::Write: return "write";
        case MarkShape::Other: return "other";
    }
    return "other";
}

ViolationMark mark_violation(const History& history, const std::vector<std::int64_t>& partner,
                             const CheckerResult& checker, const Violation& v, std::int64_t end_ns) {
    ViolationMark mark;
    mark.checker = checker.name;
    mark.kind = v.kind;
    mark.description = v.description;
    mark.ops = v.ops;
    mark.advisory = !checker.counts_toward_verdict;
    std::set<int> processes;
    std::vector<std::int64_t> times;
    for (auto index : v.ops) {
        const Op* op = op_at(history, index);
        if (!op) continue;
        times.push_back(op->time);
        if (!op->is_nemesis()) processes.insert(op->process);
        if (mark.key.empty()) mark.key = op->key;
    }
    if (v.details.contains("key") && v.details["key"].is_string()) mark.key = v.details["key"].get<std::string>();
    mark.processes.assign(processes.begin(), processes.end());
    if (times.empty()) return mark;
    mark.start_ns = *std::min_element(times.begin(), times.end());
    mark.end_ns = *std::max_element(times.begin(), times.end());

    const bool overlap = v.kind == kOverlapWithinLease || v.kind == kOverlapLeaseExpired || v.kind == kLateGrant ||
                         v.kind == kOverlapLeaseUncertain || v.kind == kGrantWithoutOwnKey;
    if (overlap && v.ops.size() >= 3)
        mark_overlap(history, v, end_ns, mark);
    else if (v.kind == kLostUpdate || v.kind == kStaleWriteAccepted)
        mark_write(history, partner, v, mark);
    if (mark.spans.empty()) {
        mark.shape = MarkShape::Other;
        mark_other(history, v, mark);
    }
    for (const auto& span : mark.spans) mark.end_ns = std::max(mark.end_ns, span.end_ns);
    return mark;
}

}  // namespace lockcheck
