// Transactional lock sessions that were rolled back (capability "resource",
// e.g. mysql-for-update with resource "inside").
//
// When the worker performs the protected read and write itself inside the
// lock's own transaction (ops marked resource "worker"), the holder's only
// effect is that transaction's commit, reported as its write. If that write
// certainly failed (fail: the transaction was rolled back, e.g. because the
// server killed the connection of a holder paused past its lease), the
// session changed nothing: from the moment its lease ran out it held nothing
// that could collide with the next holder. The mutual-exclusion checker
// therefore counts an overlap *after the lease expired* whose earlier session
// was rolled back as "rolled back", not as a violation. An overlap within the
// lease, or with a session whose commit succeeded or is unknown (info), is
// still a violation.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "checkers/lock_sessions.hpp"
#include "core/history.hpp"

namespace lockcheck {

class RolledBackSessions {
public:
    /// `partner` is pair_ops(history).
    RolledBackSessions(const History& history, const std::vector<std::int64_t>& partner);
    /// True when `session` made a worker-owned write that completed fail
    /// between its acquire's ok and its end.
    bool rolled_back(const LockSession& session) const;

private:
    /// (process, key) -> completion times of its failed worker-owned writes, ascending.
    std::map<std::pair<int, std::string>, std::vector<std::int64_t>> failed_writes_;
};

}  // namespace lockcheck
