#include "checkers/lock_ops.hpp"

#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

#include "checkers/lock_sessions.hpp"
#include "core/string_view_interner.hpp"

namespace lockcheck {
namespace {

struct KeyBuilder {
    KeyLockOps ops;
    StringViewInterner owners;  ///< becomes ops.owners
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

/// The name standing in for the owner of an op that carries none. Kept in
/// the process-wide symbol table (there are as many as workers), so the
/// owner table can hold a view of it like any other name.
std::string_view synthetic_owner(int process) { return Symbol("process " + std::to_string(process)).view(); }

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

        LockOp op;
        op.kind = acquire ? LockOpKind::Acquire : LockOpKind::Release;
        op.invoke = static_cast<std::int32_t>(p);
        op.complete = static_cast<std::int32_t>(done);
        if (!completion || completion->type == OpType::Info) {
            op.outcome = LockOutcome::Unknown;
        } else if (completion->type == OpType::Ok) {
            op.outcome = LockOutcome::Ok;
        } else if (acquire && completion->error == err::kHeld) {
            op.outcome = LockOutcome::Busy;
        } else {
            continue;  // did not take effect, says nothing about the lock
        }

        const auto [found, fresh] = key_slots.try_emplace(inv.key, keys.size());
        const std::size_t slot = found->second;
        if (fresh) {
            KeyBuilder& added = keys.emplace_back();
            added.ops.key = inv.key;
            const std::size_t bound = bounds.of(inv.key);
            added.ops.ops.reserve(bound);
            added.owners.reserve(bound);  // at most one new owner per op
        }
        KeyBuilder& key = keys[slot];
        if (inv.owner) {
            op.owner = key.owners.intern(*inv.owner);
        } else if (completion && completion->owner) {
            op.owner = key.owners.intern(*completion->owner);
        } else {
            key.ops.synthetic_owners = true;
            op.owner = key.owners.intern(synthetic_owner(inv.process));
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
        k.ops.owners = k.owners.take_names();
        out.push_back(std::move(k.ops));
    }
    return out;
}

void append_positions(const LockOp& op, std::vector<std::int64_t>& out) {
    out.push_back(op.invoke);
    if (op.complete != kNoOp) out.push_back(op.complete);
}

}  // namespace lockcheck
