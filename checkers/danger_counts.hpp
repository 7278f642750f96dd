// Dangers counted from the record: how often a run brought about each moment
// a lock client can get wrong (docs/certify.md, "Evidence"). A certify cell
// is evidence only when its danger came about: a pause that never caught a
// holder past its lease says nothing about what the client does then.
//
// Each kind is a pure function of a history (its sessions, checkers/
// lock_sessions.hpp; its fault windows, checkers/worker_fault_windows.hpp;
// the lease bounds of checkers/lease_bounds.hpp) that counts how often the
// moment came about, whatever the client then made of it: a correct client
// meets the danger and stays safe, so the counts say nothing about validity.
// A count measures exposure, not proof: where the record cannot show the
// exact instant (when a request reached a stopped worker), the rule says
// which bound it takes. results.json carries the counts in
// "exercised"."dangers" (checkers/exercise.hpp), by kind name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "checkers/lock_sessions.hpp"
#include "core/history.hpp"

namespace lockcheck {

/// What every count reads: the history, its pairing and its lock sessions.
struct DangerRecord {
    DangerRecord(const History& history, const std::vector<std::int64_t>& partner);
    const History& history;
    const std::vector<std::int64_t>& partner;  ///< pair_ops(history)
    std::vector<LockSession> sessions;         ///< extract_sessions(history, partner)
};

/// A holder stopped by a pause fault (checkers/worker_stops.hpp) until its
/// lease had certainly ended (possibly_valid_until of the terms sent before
/// the stop was recorded, at or before the resume), that then renewed, wrote
/// or released the key (an op of its session sent after the stop began: it
/// was read after the resume, so answered after the lease ended). Counted
/// once per stop.
std::size_t holders_stopped_past_lease_acted(const DangerRecord& record);
/// The same, where the key was free when the holder acted: another owner was
/// granted it after the stop began and had released it, and no other owner
/// held it (redis-semaphore#175's moment: a refresh that re-creates a key it
/// lost has a key to re-create).
std::size_t holders_stopped_past_lease_acted_on_free_key(const DangerRecord& record);
/// A renew of any answer in flight across another owner's grant of its key
/// (checkers/renew_after_loss.hpp's stat renews_across_grant).
std::size_t renews_across_grant(const DangerRecord& record);
/// An acquire answered with its lease already over by the record's bounds:
/// ok with valid_ms <= 0, or answered (ok, or a failure other than "held")
/// from inside a slow-reply window that held the reply back so long that the
/// lease had certainly ended (grant upper bound + ttl + 1 ms <= the answer);
/// or an acquire sent while a slow-reply window held its worker's replies
/// back by ttl + 1 ms or more, on a key no other owner held then, answered
/// with anything but "held" (info too): the server could grant its first
/// request at once, and that grant reached the client past its lease (a
/// reply the proxy read before the heal keeps its delay), whatever the
/// client then answered; a correct client refuses it. The bound it takes:
/// the first request took effect at once (the proxy holds back replies, not
/// requests), before the heal.
std::size_t grants_delivered_late(const DangerRecord& record);
/// An acquire sent before a pause fault was started on its worker, answered
/// (ok, info, or a failure other than "held") after the worker resumed, the
/// resume at least a lease (ttl + 1 ms) after the acquire was sent. An info
/// answer counts: the waiter's lease or session ran out while it waited, and
/// the client then did not claim the lock (a ZooKeeper waiter whose session
/// expired gets its create timed out), which is what the cell tests.
std::size_t waiters_stopped_past_lease(const DangerRecord& record);
/// A holder cut off from the servers by client-partition until its lease had
/// certainly ended, that then renewed, wrote or released: an op of its
/// session sent after the cut began and answered (or never) after the lease
/// had certainly ended, so the holder was still acting on the lock when its
/// lease ran out (a release that times out and is retried after the heal
/// then meets the next owner's lock). Counted once per cut.
std::size_t holders_cut_off_past_lease_acted(const DangerRecord& record);
/// A fault on the servers (a start-fault completion with targets, none of
/// them a worker) that struck while some lease was certainly live (its
/// session held the key and certainly_valid_until is after the strike; a
/// lock without a lease is live while it is held: a server fault then can
/// still lose it).
std::size_t server_faults_during_lease(const DangerRecord& record);
/// A fault on one worker that struck while that worker held a lease that
/// was certainly live (or a lock without a lease).
std::size_t client_faults_during_own_lease(const DangerRecord& record);
/// A release sent by a holder whose lease could have ended by the release's
/// answer, in flight while another owner held the key or was granted it: the
/// other's session began after the holder's, its acquire sent before the
/// release was answered, its hold not over before the release was sent; or
/// the other's acquire, sent before the release was answered, was answered
/// after it was sent with ok or a failure other than "held" (a client that
/// refuses a late grant answers fail, though the server granted it). A
/// plain-delete release then removes the other's lock.
std::size_t releases_across_grant_after_lease(const DangerRecord& record);
/// An acquire answered (ok, or a failure other than "held") half a lease or
/// more after it was sent: a client that times its validity from the answer,
/// not from the request, then counts time that was already spent.
std::size_t grants_after_half_lease(const DangerRecord& record);
/// A client killed by kill-holder (its start-fault completion names the
/// worker) while it held a lock (a session begun by the kill's completion
/// and not ended before its struck_ns, the moment just before the kill) or
/// had an acquire in flight (sent before the completion, answered no earlier
/// than struck_ns), whose key another worker then asked for at or after the
/// instant that lease could have run out by (the holder's
/// possibly_valid_until; an acquire's lease, set by the completion at the
/// latest: completion + ttl + 1 ms; without a lease, the completion): a lock
/// the dead client left behind must be free by then, and an acquire then
/// shows whether it is. Without struck_ns, the completion stands for the
/// kill. Counted once per kill.
std::size_t clients_killed_holding_or_acquiring(const DangerRecord& record);

/// One kind: its name in results.json, its words, its count.
struct DangerKind {
    std::string_view name;
    std::string_view words;
    std::size_t (*count)(const DangerRecord& record);
    /// Whether the danger is a lease running out (or a grant arriving late for
    /// its lease): it cannot come about with a lock that has none (capability
    /// no-lease: acquires ask for no ttl).
    bool needs_lease = true;
};
/// Every kind, in the order results.json lists them.
const std::vector<DangerKind>& danger_kinds();
/// The kind named `name`, or nullptr.
const DangerKind* find_danger_kind(std::string_view name);

/// Every kind's count over a lock history, as {name: count}.
nlohmann::json danger_counts(const History& history, const std::vector<std::int64_t>& partner);

}  // namespace lockcheck
