#include "checkers/indeterminate_cover.hpp"

#include <algorithm>
#include <limits>

namespace lockcheck {

IndeterminateCover::IndeterminateCover(const History& history, const KeyLockOps& key) : history_(history) {
    std::int64_t reach = std::numeric_limits<std::int64_t>::min();
    for (const LockOp& op : key.ops) {  // invoke order
        if (op.kind != LockOpKind::Acquire || op.outcome != LockOutcome::Unknown) continue;
        const Op& invoke = history[static_cast<std::size_t>(op.invoke)];
        if (!invoke.ttl_ms || invoke.time < 0) continue;
        const std::int64_t lease_ns = *invoke.ttl_ms * 1'000'000;
        const std::int64_t end = op.complete == kNoOp ? std::numeric_limits<std::int64_t>::max()
                                                      : history[static_cast<std::size_t>(op.complete)].time + lease_ns;
        reach = std::max(reach, end);
        invokes_.push_back(op.invoke);
        reach_.push_back(reach);
    }
}

bool IndeterminateCover::explains(const LockOp& busy) const {
    const auto before = std::lower_bound(invokes_.begin(), invokes_.end(), busy.complete);
    if (before == invokes_.begin()) return false;
    const std::int64_t reach = reach_[static_cast<std::size_t>(before - invokes_.begin()) - 1];
    return reach > history_[static_cast<std::size_t>(busy.invoke)].time;
}

}  // namespace lockcheck
