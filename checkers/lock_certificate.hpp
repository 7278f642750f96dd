// A linearization certificate for one key's lock ops, and its replay.
//
// A certificate places every op that takes effect at a point between history
// positions, in linearization order. Replaying it checks, in O(n), that each
// point lies inside its op's window, that the order of points is the order of
// the list, that every definite op (ok, busy) appears exactly once and every
// indeterminate op at most once, and that the lock model accepts the sequence.
// A valid verdict is only reported after its certificate replays cleanly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "checkers/lock_ops.hpp"

namespace lockcheck {

/// "Just after history position `after`"; ops at the same position are ordered by `sub`.
/// 32 bits each: a position fits (the lock model takes at most
/// kMaxLockModelPositions), and so does `sub` (the fast check's few sub-orders,
/// the search's node number, which its 32-bit node links bound). A certificate
/// entry is 12 bytes, not 24: a big valid history has millions.
struct LinPoint {
    std::int32_t after = 0;
    std::uint32_t sub = 0;

    friend bool operator<(const LinPoint& a, const LinPoint& b) {
        return a.after != b.after ? a.after < b.after : a.sub < b.sub;
    }
    friend bool operator==(const LinPoint&, const LinPoint&) = default;
};

struct CertEntry {
    std::uint32_t op = 0;  ///< index into KeyLockOps::ops
    LinPoint at;
};

static_assert(sizeof(CertEntry) == 12, "a certificate entry is kept small: a big history has millions");

/// In linearization order (points non-decreasing).
using Certificate = std::vector<CertEntry>;

/// Replays the certificate against the model. Returns "" when it holds, else
/// the first reason it does not.
std::string replay_certificate(const KeyLockOps& key, const Certificate& certificate);

}  // namespace lockcheck
