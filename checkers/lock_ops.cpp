#include "checkers/lock_ops.hpp"

#include <map>
#include <utility>

#include "checkers/lock_sessions.hpp"
#include "core/string_interner.hpp"

namespace lockcheck {
namespace {

struct KeyBuilder {
    KeyLockOps ops;
    StringInterner owners;  ///< becomes ops.owners
};

}  // namespace

std::vector<KeyLockOps> collect_lock_ops(const History& history, const std::vector<std::int64_t>& partner) {
    std::vector<KeyBuilder> keys;
    StringInterner key_slots;  // key -> its position in `keys`
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
                    {LockOpKind::Release, LockOutcome::Unknown, it->second, static_cast<std::int64_t>(p), kNoOp});
                it = holding.erase(it);
            }
            continue;
        }
        if (!inv.is_invoke() || inv.is_nemesis()) continue;
        const bool acquire = inv.f == fn::kAcquire;
        if (!acquire && inv.f != fn::kRelease) continue;
        const std::int64_t done = partner[p];
        const Op* completion = done == kNoOp ? nullptr : &history[static_cast<std::size_t>(done)];

        LockOp op;
        op.kind = acquire ? LockOpKind::Acquire : LockOpKind::Release;
        op.invoke = static_cast<std::int64_t>(p);
        op.complete = done;
        if (!completion || completion->type == OpType::Info) {
            op.outcome = LockOutcome::Unknown;
        } else if (completion->type == OpType::Ok) {
            op.outcome = LockOutcome::Ok;
        } else if (acquire && completion->error == err::kHeld) {
            op.outcome = LockOutcome::Busy;
        } else {
            continue;  // did not take effect, says nothing about the lock
        }

        const auto slot = static_cast<std::size_t>(key_slots.intern(inv.key));
        if (slot == keys.size()) {
            keys.emplace_back();
            keys.back().ops.key = inv.key;
        }
        KeyBuilder& key = keys[slot];
        if (inv.owner) {
            op.owner = key.owners.intern(*inv.owner);
        } else if (completion && completion->owner) {
            op.owner = key.owners.intern(*completion->owner);
        } else {
            key.ops.synthetic_owners = true;
            op.owner = key.owners.intern("process " + std::to_string(inv.process));
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
