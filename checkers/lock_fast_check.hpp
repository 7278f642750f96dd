// The O(n log n) linearizability decision for one key inside the owner fragment
// (docs/checkers.md, "The fast path").
//
// The fragment: every acquire has its own owner (no owner acquires twice), an
// owner whose acquire succeeded releases at most once (failed releases do not
// count) and only after that acquire completed, and an owner whose acquire was
// indeterminate never releases. Then a *session* (acquire ok + its release)
// holds the lock over an interval containing its core [acquire completion,
// release invocation]; the sessions' order is forced by their cores, and what
// remains free decouples gap by gap:
//   - two overlapping cores: "double-grant";
//   - a busy answer whose whole window lies where the lock is certainly free
//     (after the previous release completed, before the next acquire was
//     invoked, and, after the last session, before any indeterminate acquire
//     was invoked): "busy-while-free";
//   - a release ok by an owner that never acquired: "release-without-hold".
// Otherwise the key is linearizable, and a certificate is built; the caller
// replays it (replay_certificate) before it reports the key valid.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "checkers/indeterminate_cover.hpp"
#include "checkers/lock_ops.hpp"
#include "checkers/lock_verdict.hpp"

namespace lockcheck {

/// Decides the key, listing at most `max_findings` findings; nullopt when the
/// key's ops leave the fragment, with the first reason in `*outside`. With a
/// `cover` (locks with leases), a busy-while-free answer it explains goes to
/// KeyVerdict::explained instead of the findings; a key whose only
/// departures from the model are such answers is Unknown (the strict model
/// cannot express a lapsed indeterminate grant, so there is no certificate).
std::optional<KeyVerdict> check_key_fast(const KeyLockOps& key, std::size_t max_findings, std::string* outside,
                                         const IndeterminateCover* cover = nullptr);

}  // namespace lockcheck
