#include "checkers/lock_witness.hpp"

#include <algorithm>
#include <unordered_map>

namespace lockcheck {
namespace {

constexpr std::size_t kMaxShrinkWindow = 4096;  // ops; larger windows are reported whole
constexpr std::size_t kMaxTrials = 400;

}  // namespace

KeyLockOps sub_history(const KeyLockOps& key, const std::vector<std::uint32_t>& subset, std::int64_t cut) {
    KeyLockOps sub;
    sub.key = key.key;
    sub.synthetic_owners = key.synthetic_owners;
    std::unordered_map<std::int32_t, std::int32_t> renumber;
    std::vector<std::int32_t> kept_owners;  // the key's owner ids, in the sub-history's order
    for (std::uint32_t i : subset) {
        LockOp op = key.ops[i];
        auto [it, fresh] = renumber.try_emplace(op.owner, static_cast<std::int32_t>(kept_owners.size()));
        if (fresh) kept_owners.push_back(op.owner);
        op.owner = it->second;
        if (op.definite() && op.complete > cut) op.outcome = LockOutcome::Unknown;
        sub.ops.push_back(op);
    }
    sub.owners = key.owners.subset(kept_owners);
    return sub;
}

std::vector<std::uint32_t> shrink_witness(const KeyLockOps& key, const SearchOutcome& failed, std::size_t budget) {
    const auto failed_op = static_cast<std::uint32_t>(failed.failed_op);
    const std::int64_t cut = key.ops[failed_op].complete;
    std::vector<std::uint32_t> keep, busy;  // busy answers are the only ops removed (see the header)
    std::int64_t context = -1;
    for (std::uint32_t i = 0; i < key.ops.size(); ++i) {
        const LockOp& op = key.ops[i];
        if (op.invoke == failed.window_start - 1 || op.complete == failed.window_start - 1) context = i;
        const bool in_window = (op.invoke >= failed.window_start && op.invoke < cut) ||
                               static_cast<std::int64_t>(i) == failed.free_forever_rep;
        if (!in_window) continue;
        (op.outcome == LockOutcome::Busy && i != failed_op ? busy : keep).push_back(i);
    }
    auto with = [&](const std::vector<std::uint32_t>& some_busy) {
        std::vector<std::uint32_t> all = keep;
        all.insert(all.end(), some_busy.begin(), some_busy.end());
        std::sort(all.begin(), all.end());
        return all;
    };
    std::size_t trials = 0;
    auto still_invalid = [&](const std::vector<std::uint32_t>& some_busy) {
        ++trials;
        return search_key(sub_history(key, with(some_busy), cut), budget).valid == Validity::Invalid;
    };
    if (keep.size() + busy.size() <= kMaxShrinkWindow && still_invalid(busy)) {
        for (std::size_t chunk = std::max<std::size_t>(busy.size() / 2, 1); !busy.empty() && trials < kMaxTrials;
             chunk /= 2) {
            for (std::size_t at = 0; at < busy.size() && trials < kMaxTrials;) {
                std::vector<std::uint32_t> trial(busy.begin(), busy.begin() + static_cast<std::ptrdiff_t>(at));
                trial.insert(trial.end(), busy.begin() + static_cast<std::ptrdiff_t>(std::min(at + chunk, busy.size())),
                             busy.end());
                if (still_invalid(trial))
                    busy = std::move(trial);
                else
                    at += chunk;
            }
            if (chunk == 1) break;
        }
    }
    auto out = with(busy);
    if (context >= 0 && !std::binary_search(out.begin(), out.end(), static_cast<std::uint32_t>(context)))
        out.insert(std::upper_bound(out.begin(), out.end(), static_cast<std::uint32_t>(context)),
                   static_cast<std::uint32_t>(context));
    return out;
}

}  // namespace lockcheck
