#include "checkers/indeterminate_cover.hpp"

#include <algorithm>
#include <limits>

#include "checkers/lease_bounds.hpp"

namespace lockcheck {

IndeterminateCover::IndeterminateCover(const History& history, const KeyLockOps& key) : history_(history) {
    constexpr std::int64_t kUnbounded = std::numeric_limits<std::int64_t>::max();
    for (const LockOp& op : key.ops) {  // invoke order
        if (op.kind != LockOpKind::Acquire) continue;
        const Op& invoke = history[static_cast<std::size_t>(op.invoke)];
        if (op.outcome == LockOutcome::Ok && op.complete != kNoOp)
            grants_.emplace_back(invoke.time, history[static_cast<std::size_t>(op.complete)].time);
        if (op.outcome != LockOutcome::Unknown || !invoke.ttl_ms || invoke.time < 0) continue;
        const std::int64_t lease_ns = *invoke.ttl_ms * 1'000'000;
        const bool answered = op.complete != kNoOp;
        const std::int64_t answer = answered ? history[static_cast<std::size_t>(op.complete)].time : kUnbounded;
        const std::int64_t lapse = invoke.time + lease_ns - kLeaseGranularityNs;
        candidates_.push_back({op.invoke, answered ? answer + lease_ns : kUnbounded, std::min(lapse, answer)});
    }
    std::sort(grants_.begin(), grants_.end());
    earliest_answer_from_.assign(grants_.size() + 1, kUnbounded);
    for (std::size_t i = grants_.size(); i-- > 0;)
        earliest_answer_from_[i] = std::min(earliest_answer_from_[i + 1], grants_[i].second);
}

std::int64_t IndeterminateCover::earliest_later_grant(std::int64_t from_ns) const {
    const auto first = std::lower_bound(grants_.begin(), grants_.end(), std::pair(from_ns, std::int64_t{0}),
                                        [](const auto& a, const auto& b) { return a.first < b.first; });
    return earliest_answer_from_[static_cast<std::size_t>(first - grants_.begin())];
}

bool IndeterminateCover::explains(const LockOp& busy) const {
    const std::int64_t busy_invoke = history_[static_cast<std::size_t>(busy.invoke)].time;
    const std::int64_t later_grant = earliest_later_grant(history_[static_cast<std::size_t>(busy.complete)].time);
    return std::any_of(candidates_.begin(), candidates_.end(), [&](const Candidate& c) {
        return c.invoke < busy.complete && c.reach_ns > busy_invoke &&
               std::max(c.earliest_end_ns, busy_invoke) <= later_grant;
    });
}

}  // namespace lockcheck
