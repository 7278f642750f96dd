#include "checkers/lock_ops.hpp"

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

#include "checkers/lock_sessions.hpp"
#include "core/interner.hpp"

namespace lockcheck {
namespace {

/// Gets an owner's name back from the history position that names it.
struct OwnerAt {
    const History* history;
    std::string_view operator()(std::uint32_t position) const { return owner_named_by((*history)[position]); }
};

struct KeyBuilder {
    KeyLockOps ops;
    Interner<std::uint32_t, OwnerAt> owners;  ///< becomes ops.owners
};

bool is_lock_invoke(const Op& op) {
    return op.is_invoke() && !op.is_nemesis() && (op.f == fn::kAcquire || op.f == fn::kRelease);
}

/// How many model ops a key can have at most: one per acquire or release
/// invoked on it, and one per kill-holder kill (a kill ends at most one hold
/// per key). Counted before collecting, so that each key's lists are
/// allocated once instead of doubling (and copying) as they fill.
class LockOpBounds {
public:
    explicit LockOpBounds(const History& history) {
        for (const Op& op : history) {
            if (killed_worker(op))
                ++kills_;
            else if (is_lock_invoke(op))
                ++invokes_per_key_[op.key];
        }
    }
    std::size_t of(const Symbol& key) const { return invokes_per_key_.at(key) + kills_; }

private:
    std::unordered_map<Symbol, std::size_t> invokes_per_key_;
    std::size_t kills_ = 0;
};

/// What the lock op invoked at `inv` and completed by `completion` (null:
/// never) did to the lock; nullopt when it did not take effect.
std::optional<LockOutcome> lock_outcome(const Op& inv, const Op* completion) {
    if (!completion || completion->type == OpType::Info) return LockOutcome::Unknown;
    if (completion->type == OpType::Ok) return LockOutcome::Ok;
    if (inv.f == fn::kAcquire && completion->error == err::kHeld) return LockOutcome::Busy;
    return std::nullopt;
}

/// The builder of `key`'s ops, its lists allocated for `bound` ops.
KeyBuilder key_builder(const History& history, const Symbol& key, std::size_t bound) {
    KeyBuilder added{{}, Interner<std::uint32_t, OwnerAt>(OwnerAt{&history})};
    added.ops.key = key;
    added.ops.ops.reserve(bound);
    added.owners.reserve(bound);  // at most one new owner per op
    return added;
}

}  // namespace

std::vector<KeyLockOps> collect_lock_ops(const History& history, const std::vector<std::int64_t>& partner) {
    if (history.size() > kMaxLockModelPositions)
        throw std::length_error("the lock model takes at most " + std::to_string(kMaxLockModelPositions) +
                                " ops; the history has " + std::to_string(history.size()));
    const LockOpBounds bounds(history);
    std::vector<KeyBuilder> keys;
    std::unordered_map<Symbol, std::size_t> key_slots;  // key -> its position in `keys`
    // (process, key slot) -> owner of its acquire not yet followed by a release invoke.
    std::map<std::pair<int, std::size_t>, std::int32_t> holding;
    for (std::size_t p = 0; p < history.size(); ++p) {
        const Op& inv = history[p];
        if (const auto killed = killed_worker(inv)) {
            // A killed holder's lock may die with it (a session lock), later
            // (a session timeout), or never (a stuck record): a release of
            // unknown outcome, invoked at the kill.
            for (auto it = holding.lower_bound({*killed, 0}); it != holding.end() && it->first.first == *killed;) {
                keys[it->first.second].ops.ops.push_back(
                    {LockOpKind::Release, LockOutcome::Unknown, it->second, static_cast<std::int32_t>(p), kNoOp});
                it = holding.erase(it);
            }
            continue;
        }
        if (!is_lock_invoke(inv)) continue;
        const bool acquire = inv.f == fn::kAcquire;
        const std::int64_t done = partner[p];
        const Op* completion = done == kNoOp ? nullptr : &history[static_cast<std::size_t>(done)];

        const auto outcome = lock_outcome(inv, completion);
        if (!outcome) continue;  // did not take effect, says nothing about the lock
        LockOp op;
        op.kind = acquire ? LockOpKind::Acquire : LockOpKind::Release;
        op.invoke = static_cast<std::int32_t>(p);
        op.complete = static_cast<std::int32_t>(done);
        op.outcome = *outcome;

        const auto [found, fresh] = key_slots.try_emplace(inv.key, keys.size());
        const std::size_t slot = found->second;
        if (fresh) keys.push_back(key_builder(history, inv.key, bounds.of(inv.key)));
        KeyBuilder& key = keys[slot];
        // The op that names the owner: the invoke, else the completion, else
        // the invoke again, for "process N" (owner_named_by).
        if (inv.owner) {
            op.owner = key.owners.intern(static_cast<std::uint32_t>(p));
        } else if (completion && completion->owner) {
            op.owner = key.owners.intern(static_cast<std::uint32_t>(done));
        } else {
            key.ops.synthetic_owners = true;
            op.owner = key.owners.intern(static_cast<std::uint32_t>(p));
        }
        key.ops.ops.push_back(op);
        if (acquire && op.outcome != LockOutcome::Busy)
            holding[{inv.process, slot}] = op.owner;
        else if (!acquire)
            holding.erase({inv.process, slot});
    }
    std::vector<KeyLockOps> out;
    out.reserve(keys.size());
    for (auto& k : keys) {
        k.ops.owners = OwnerNames(history, k.owners.take_handles());
        out.push_back(std::move(k.ops));
    }
    return out;
}

void append_positions(const LockOp& op, std::vector<std::int64_t>& out) {
    out.push_back(op.invoke);
    if (op.complete != kNoOp) out.push_back(op.complete);
}

}  // namespace lockcheck
