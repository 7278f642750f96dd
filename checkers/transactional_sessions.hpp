// Lock sessions whose lock is a database transaction (capability "resource",
// e.g. mysql-for-update with resource "inside").
//
// When the worker performs the protected read and write itself inside the
// lock's own transaction (ops marked resource "worker"), its write is the
// transaction's end: UPDATE and COMMIT, and the commit releases the lock. So:
//   - a session whose write completed ok (committed) ends when that write
//     was *invoked*: the commit proves the transaction held the lock until it
//     committed, and the database may grant the lock to the next client
//     before the write's reply is recorded (the later release op only cleans
//     up). Any other session ends at its write's completion, as the holder
//     acted as one until then (a paused holder wakes and sends its UPDATE);
//   - a session whose write completed fail was certainly rolled back: it
//     changed nothing. An overlap that begins after its lease expired (the
//     server killed the connection of a holder paused past its lease) is
//     harmless: the mutual-exclusion checker counts it as "rolled back", not
//     as a violation. Overlaps within the lease, or with a session whose
//     commit succeeded or is unknown (info), stay violations.
#pragma once

#include <cstdint>
#include <vector>

#include "checkers/lock_sessions.hpp"
#include "core/history.hpp"

namespace lockcheck {

/// Ends each transactional session of `sessions` at its first worker-owned
/// write (see above; never later than it ended already); returns, per
/// session, whether that write completed fail (rolled back). `partner` is
/// pair_ops(history). Start times, and so the order of `sessions`, are kept.
std::vector<bool> end_transactional_sessions(const History& history, const std::vector<std::int64_t>& partner,
                                             std::vector<LockSession>& sessions);

}  // namespace lockcheck
