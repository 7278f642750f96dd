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
    for (std::uint32_t i : subset) {
        LockOp op = key.ops[i];
        auto [it, fresh] = renumber.try_emplace(op.owner, static_cast<std::int32_t>(sub.owners.size()));
        if (fresh) sub.owners.push_back(key.owners[static_cast<std::size_t>(op.owner)]);
        op.owner = it->second;
        if (op.definite() && op.complete > cut) op.outcome = LockOutcome::Unknown;
        sub.ops.push_back(op);
    }
    return sub;
}

std::vector<std::uint32_t> shrink_witness(const KeyLockOps& key, const SearchOutcome& failed, std::size_t budget) {
    const auto failed_op = static_cast<std::uint32_t>(failed.failed_op);
    const std::int64_t cut = key.ops[failed_op].complete;
    std::vector<std::uint32_t> window;
    if (failed.free_forever_rep >= 0) window.push_back(static_cast<std::uint32_t>(failed.free_forever_rep));
    for (std::uint32_t i = 0; i < key.ops.size(); ++i)
        if (key.ops[i].invoke >= failed.window_start && key.ops[i].invoke < cut &&
            static_cast<std::int64_t>(i) != failed.free_forever_rep)
            window.push_back(i);
    std::sort(window.begin(), window.end());
    if (window.size() > kMaxShrinkWindow) return window;

    std::size_t trials = 0;
    auto still_invalid = [&](const std::vector<std::uint32_t>& subset) {
        ++trials;
        return search_key(sub_history(key, subset, cut), budget).valid == Validity::Invalid;
    };
    if (!still_invalid(window)) return window;  // cannot happen for a sound search; report the window as is
    for (std::size_t chunk = std::max<std::size_t>(window.size() / 2, 1); trials < kMaxTrials; chunk /= 2) {
        for (std::size_t at = 0; at < window.size() && trials < kMaxTrials;) {
            std::vector<std::uint32_t> trial(window.begin(), window.begin() + static_cast<std::ptrdiff_t>(at));
            trial.insert(trial.end(), window.begin() + static_cast<std::ptrdiff_t>(std::min(at + chunk, window.size())),
                         window.end());
            if (!trial.empty() && still_invalid(trial))
                window = std::move(trial);
            else
                at += chunk;
        }
        if (chunk == 1) break;
    }
    return window;
}

}  // namespace lockcheck
