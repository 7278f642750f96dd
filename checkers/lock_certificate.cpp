#include "checkers/lock_certificate.hpp"

namespace lockcheck {

std::string replay_certificate(const KeyLockOps& key, const Certificate& certificate) {
    std::vector<bool> seen(key.ops.size(), false);
    std::int32_t holder = kFree;
    const CertEntry* previous = nullptr;
    for (const CertEntry& e : certificate) {
        // Built only for a message: a certificate has millions of entries.
        const auto where = [&e] { return "certificate entry for op " + std::to_string(e.op) + ": "; };
        if (e.op >= key.ops.size()) return where() + "no such op";
        if (previous && e.at < previous->at) return where() + "points out of order";
        previous = &e;
        const LockOp& op = key.ops[e.op];
        if (e.at.after < op.invoke || e.at.after >= op.deadline()) return where() + "point outside the op's window";
        if (seen[e.op]) return where() + "op placed twice";
        seen[e.op] = true;
        if (op.kind == LockOpKind::Acquire && op.outcome == LockOutcome::Busy) {
            if (holder == kFree) return where() + "busy answer while the lock is free";
        } else if (op.kind == LockOpKind::Acquire) {
            if (holder != kFree) return where() + "acquire while the lock is held";
            holder = op.owner;
        } else {
            if (holder != op.owner) return where() + "release by an owner that does not hold the lock";
            holder = kFree;
        }
    }
    for (std::size_t i = 0; i < key.ops.size(); ++i)
        if (key.ops[i].definite() && !seen[i]) return "certificate omits definite op " + std::to_string(i);
    return {};
}

}  // namespace lockcheck
