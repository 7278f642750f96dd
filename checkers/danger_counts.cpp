#include "checkers/danger_counts.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "checkers/fault_targets.hpp"
#include "checkers/lease_bounds.hpp"
#include "checkers/renew_after_loss.hpp"
#include "checkers/worker_fault_windows.hpp"
#include "checkers/worker_stops.hpp"

namespace lockcheck {
namespace {

constexpr std::string_view kClientPartition = "client-partition";

std::map<int, std::vector<WorkerFaultWindow>> by_process(const std::vector<WorkerFaultWindow>& windows) {
    std::map<int, std::vector<WorkerFaultWindow>> out;
    for (const auto& w : windows) out[w.process].push_back(w);
    return out;
}

/// An answer that may have carried a grant: ok, or a failure other than "held".
bool may_carry_grant(const Op& done) {
    return done.type == OpType::Ok || (done.type == OpType::Fail && done.error != err::kHeld);
}

std::int64_t ms_to_ns(std::int64_t ms) { return ms * 1'000'000; }

/// Whether another owner of `holder`'s key was granted it at or after
/// `since_ns`, had released it by `at_ns`, and no other owner held it at `at_ns`.
bool key_freed_by_other(const DangerRecord& record, const LockSession& holder, std::int64_t since_ns,
                        std::int64_t at_ns) {
    bool freed = false;
    for (const LockSession& o : record.sessions) {
        if (o.key != holder.key || o.process == holder.process) continue;
        if (o.start_ns <= at_ns && (o.held_at_end || o.end_ns > at_ns)) return false;
        freed = freed || (o.start_ns >= since_ns && o.release_invoke && o.end_ns <= at_ns);
    }
    return freed;
}

/// Which acts count: the holder's ops on its key (renew, write, release)
/// sent after the fault began and answered (or never) after its lease had
/// certainly ended; a stopped worker read them no earlier than its resume.
struct ActRule {
    bool stops_worker = true;  ///< the fault stops the worker (pause), or only cuts it off (client-partition)
    bool key_free = false;     ///< count only acts on a key another owner had taken and freed
};

/// When the op at `p` was answered; after the history's end when it never was.
std::int64_t answered_at(const DangerRecord& record, std::size_t p) {
    const std::int64_t done = record.partner[p];
    return done >= 0 ? record.history[static_cast<std::size_t>(done)].time : record.history.back().time + 1;
}

bool acts_on_lock(const Op& op, const LockSession& s) {
    return op.is_invoke() && op.process == s.process && op.key == s.key &&
           (op.f == fn::kRenew || op.f == fn::kWrite || op.f == fn::kRelease);
}

/// Whether `s`, under fault window `w`, acted after its lease had certainly ended.
bool acted_past_lease(const DangerRecord& record, const LockSession& s, const WorkerFaultWindow& w, ActRule rule) {
    if (w.from_ns < record.history[s.acquire_invoke].time || w.from_ns > s.end_ns) return false;
    const std::int64_t lease_end = s.possibly_valid_until(w.from_ns);
    if (lease_end > w.until_ns) return false;
    for (std::size_t p = s.acquire_ok + 1; p < record.history.size(); ++p) {
        const Op& op = record.history[p];
        if (op.time > s.end_ns) break;
        if (!acts_on_lock(op, s) || op.time < w.from_ns || answered_at(record, p) < lease_end) continue;
        const std::int64_t effect = rule.stops_worker ? std::max(op.time, w.until_ns) : op.time;
        if (!rule.key_free || key_freed_by_other(record, s, w.from_ns, effect)) return true;
    }
    return false;
}

std::size_t count_acted_past_lease(const DangerRecord& record, const std::vector<std::string_view>& faults,
                                   ActRule rule) {
    const auto windows = by_process(worker_fault_windows(record.history, faults));
    std::size_t count = 0;
    for (const LockSession& s : record.sessions) {
        if (!s.ttl_ms || s.lease_terms.empty()) continue;
        const auto it = windows.find(s.process);
        if (it == windows.end()) continue;
        for (const WorkerFaultWindow& w : it->second) count += acted_past_lease(record, s, w, rule);
    }
    return count;
}

/// One answered acquire, as the counts that read acquires see it.
struct AnsweredAcquire {
    const Op& invoke;
    const Op& done;
    std::int64_t grant_hi_ns;   ///< the ReplyDelays bound of its grant
    std::int64_t held_back_ns;  ///< how long a slow-reply window open at its invoke held its worker's replies back
};

/// Acquires answered in a way that may carry a grant (ok, or a failure
/// other than "held"; also info when `with_info`), with `pred(AnsweredAcquire)`.
template <typename Pred>
std::size_t count_answered_acquires(const DangerRecord& record, Pred pred, bool with_info = false) {
    ReplyDelays delays;
    std::map<std::size_t, std::int64_t> held_back;  // acquire invoke position -> its held_back_ns
    std::size_t count = 0;
    for (std::size_t p = 0; p < record.history.size(); ++p) {
        const Op& op = record.history[p];
        delays.observe(op);
        if (op.f != fn::kAcquire) continue;
        if (op.is_invoke()) {
            held_back[p] = delays.held_back_ns(op.process);
            continue;
        }
        if (record.partner[p] < 0 || !(may_carry_grant(op) || (with_info && op.type == OpType::Info))) continue;
        const auto at = static_cast<std::size_t>(record.partner[p]);
        const Op& invoke = record.history[at];
        count += pred(
            AnsweredAcquire{invoke, op, delays.grant_upper_bound(op.process, invoke.time, op.time), held_back[at]});
    }
    return count;
}

/// Whether no other owner held `key` at `t_ns` (no other process's session was open then).
bool key_free_at(const DangerRecord& record, std::string_view key, int process, std::int64_t t_ns) {
    return std::none_of(record.sessions.begin(), record.sessions.end(), [&](const LockSession& o) {
        return o.key == key && o.process != process && o.start_ns <= t_ns && (o.held_at_end || o.end_ns > t_ns);
    });
}

/// Whether the nemesis op is a fault's strike (a start-fault completion with
/// targets): on one worker (`worker` set: its one target is "worker N") or on
/// the servers (no target is a worker: "worker N"). A fresh grant's aim
/// beside the nodes ("10 ms after the grant to worker 1", power-loss's
/// power_loss_after_grant_ms) says when a server fault struck, not whom.
bool strike(const Op& op, std::optional<int>& worker) {
    if (!op.is_nemesis() || op.f != fn::kStartFault || op.is_invoke() || op.error || !op.value.is_object())
        return false;
    const auto targets = op.value.find("targets");
    if (targets == op.value.end() || !targets->is_array() || targets->empty()) return false;
    worker = single_targeted_worker(op.value);
    return worker || std::none_of(targets->begin(), targets->end(), [](const nlohmann::json& t) {
               return !t.is_string() || targeted_worker(t.get_ref<const std::string&>());
           });
}

/// Whether `s` certainly held its key at `t` within a live lease; a lock
/// without a lease (capability no-lease) is live from its grant to its release.
bool lease_live_at(const LockSession& s, std::int64_t t) {
    return s.start_ns <= t && (s.held_at_end || s.end_ns > t) && s.certainly_valid_until(t) > t;
}

std::size_t count_strikes_during_lease(const DangerRecord& record, bool on_worker) {
    std::size_t count = 0;
    for (const Op& op : record.history) {
        std::optional<int> worker;
        if (!strike(op, worker) || worker.has_value() != on_worker) continue;
        count += std::any_of(record.sessions.begin(), record.sessions.end(), [&](const LockSession& s) {
            return (!on_worker || s.process == *worker) && lease_live_at(s, op.time);
        });
    }
    return count;
}

/// Whether another process's acquire of `s`'s key, sent before `before_ns`
/// and answered after `after_ns` with an answer that may carry a grant (a
/// client that refuses a late grant answers fail: the server granted all the
/// same), was in flight across the window.
bool granted_across(const DangerRecord& record, const LockSession& s, std::int64_t after_ns, std::int64_t before_ns) {
    for (std::size_t p = s.acquire_ok + 1; p < record.history.size(); ++p) {
        const Op& op = record.history[p];
        if (op.time >= before_ns) break;
        if (op.f != fn::kAcquire || !op.is_invoke() || op.process == s.process || op.key != s.key) continue;
        const std::int64_t done = record.partner[p];
        if (done >= 0 && record.history[static_cast<std::size_t>(done)].time > after_ns &&
            may_carry_grant(record.history[static_cast<std::size_t>(done)]))
            return true;
    }
    return false;
}

}  // namespace

DangerRecord::DangerRecord(const History& h, const std::vector<std::int64_t>& p)
    : history(h), partner(p), sessions(extract_sessions(h, p)) {}

std::size_t holders_stopped_past_lease_acted(const DangerRecord& record) {
    return count_acted_past_lease(record, worker_stopping_fault_names(), {true, false});
}

std::size_t holders_stopped_past_lease_acted_on_free_key(const DangerRecord& record) {
    return count_acted_past_lease(record, worker_stopping_fault_names(), {true, true});
}

std::size_t renews_across_grant(const DangerRecord& record) {
    return count_renews_across_grant(record.history, record.partner, record.sessions);
}

std::size_t grants_delivered_late(const DangerRecord& record) {
    return count_answered_acquires(
        record,
        [&](const AnsweredAcquire& a) {
            if (a.done.type == OpType::Ok && a.done.valid_ms && *a.done.valid_ms <= 0) return true;
            if (!a.invoke.ttl_ms) return false;
            const std::int64_t lease = ms_to_ns(*a.invoke.ttl_ms) + kLeaseGranularityNs;
            if (a.done.type != OpType::Info && a.grant_hi_ns + lease <= a.done.time) return true;
            return a.held_back_ns >= lease && key_free_at(record, a.invoke.key, a.invoke.process, a.invoke.time);
        },
        true);
}

std::size_t grants_after_half_lease(const DangerRecord& record) {
    return count_answered_acquires(record, [](const AnsweredAcquire& a) {
        return a.invoke.ttl_ms && a.done.time - a.invoke.time >= ms_to_ns(*a.invoke.ttl_ms) / 2;
    });
}

std::size_t waiters_stopped_past_lease(const DangerRecord& record) {
    const auto windows = by_process(worker_fault_windows(record.history, worker_stopping_fault_names()));
    return count_answered_acquires(record, [&](const AnsweredAcquire& a) {
        const auto it = windows.find(a.invoke.process);
        if (it == windows.end() || !a.invoke.ttl_ms) return false;
        return std::any_of(it->second.begin(), it->second.end(), [&](const WorkerFaultWindow& w) {
            return a.invoke.time < w.asked_ns && a.done.time >= w.until_ns &&
                   w.until_ns >= a.invoke.time + ms_to_ns(*a.invoke.ttl_ms) + kLeaseGranularityNs;
        });
    }, true);
}

std::size_t holders_cut_off_past_lease_acted(const DangerRecord& record) {
    return count_acted_past_lease(record, {kClientPartition}, {false, false});
}

std::size_t server_faults_during_lease(const DangerRecord& record) { return count_strikes_during_lease(record, false); }

std::size_t client_faults_during_own_lease(const DangerRecord& record) {
    return count_strikes_during_lease(record, true);
}

std::size_t releases_across_grant_after_lease(const DangerRecord& record) {
    std::size_t count = 0;
    for (const LockSession& s : record.sessions) {
        if (!s.release_invoke || !s.ttl_ms || s.lease_terms.empty()) continue;
        const Op& release = record.history[*s.release_invoke];
        const std::int64_t answered = answered_at(record, *s.release_invoke);
        if (s.possibly_valid_until(release.time) > answered) continue;
        const bool held = std::any_of(record.sessions.begin(), record.sessions.end(), [&](const LockSession& o) {
            return o.key == s.key && o.process != s.process && o.start_ns > s.start_ns &&
                   record.history[o.acquire_invoke].time < answered && (o.held_at_end || o.end_ns > release.time);
        });
        count += held || granted_across(record, s, release.time, answered);
    }
    return count;
}

namespace {

/// The kill of a kill-holder completion: from just before it (struck_ns;
/// without it, the completion) to the completion that records it.
struct KillWindow {
    std::int64_t struck_ns = 0, done_ns = 0;
};

/// What the worker killed in `kill` may have left on a key: the key, and the
/// instant its lease could have run out by (the kill itself without a lease).
/// nullopt when the worker neither held a lock nor had an acquire in flight.
std::optional<std::pair<std::string, std::int64_t>> left_behind(const DangerRecord& record, int worker,
                                                                KillWindow kill) {
    for (const LockSession& s : record.sessions)
        if (s.process == worker && s.start_ns <= kill.done_ns && (s.held_at_end || s.end_ns >= kill.struck_ns))
            return std::pair{s.key, s.ttl_ms ? s.possibly_valid_until(kill.done_ns) : kill.done_ns};
    for (std::size_t p = 0; p < record.history.size() && record.history[p].time <= kill.done_ns; ++p) {
        const Op& op = record.history[p];
        if (op.process != worker || !op.is_invoke() || op.f != fn::kAcquire || answered_at(record, p) < kill.struck_ns)
            continue;
        return std::pair{op.key, op.ttl_ms ? kill.done_ns + ms_to_ns(*op.ttl_ms) + kLeaseGranularityNs : kill.done_ns};
    }
    return std::nullopt;
}

}  // namespace

std::size_t clients_killed_holding_or_acquiring(const DangerRecord& record) {
    std::size_t count = 0;
    for (const Op& op : record.history) {
        const auto worker = killed_worker(op);
        if (!worker) continue;
        const auto struck = op.value.find("struck_ns");
        const bool has_struck = struck != op.value.end() && struck->is_number_integer();
        const auto left = left_behind(record, *worker, {has_struck ? struck->get<std::int64_t>() : op.time, op.time});
        if (!left) continue;
        count += std::any_of(record.history.begin(), record.history.end(), [&](const Op& other) {
            return other.is_invoke() && other.f == fn::kAcquire && other.key == left->first &&
                   other.process != *worker && other.time >= left->second;
        });
    }
    return count;
}

const std::vector<DangerKind>& danger_kinds() {
    static const std::vector<DangerKind> kinds{
        {"holders_stopped_past_lease_acted",
         "a holder stopped (pause) past its lease that then renewed, wrote or released",
         holders_stopped_past_lease_acted},
        {"holders_stopped_past_lease_acted_on_free_key",
         "a holder stopped (pause) past its lease that then acted while the key was free, after another owner "
         "had taken and released it",
         holders_stopped_past_lease_acted_on_free_key},
        {"renews_across_grant", "a renew in flight across another owner's grant", renews_across_grant},
        {"grants_delivered_late",
         "a grant delivered with its lease already over, or an acquire of a free key whose replies were held back "
         "past its lease",
         grants_delivered_late},
        {"waiters_stopped_past_lease", "a waiter stopped past its lease while its acquire was in flight, then answered",
         waiters_stopped_past_lease},
        {"holders_cut_off_past_lease_acted", "a holder cut off (client-partition) past its lease that then acted",
         holders_cut_off_past_lease_acted},
        {"server_faults_during_lease", "a server fault that struck while a lease was live", server_faults_during_lease,
         false},
        {"client_faults_during_own_lease", "a fault on a client that struck while that client's lease was live",
         client_faults_during_own_lease, false},
        {"releases_across_grant_after_lease",
         "a holder released after its lease ran out, while another owner held the lock or was granted it",
         releases_across_grant_after_lease},
        {"grants_after_half_lease", "a grant answered half a lease or more after it was asked for",
         grants_after_half_lease},
        {"clients_killed_holding_or_acquiring",
         "a client killed (kill-holder) holding or with its acquire in flight, its key asked for again after that "
         "lease could have run out",
         clients_killed_holding_or_acquiring, false},
    };
    return kinds;
}

const DangerKind* find_danger_kind(std::string_view name) {
    for (const DangerKind& kind : danger_kinds())
        if (kind.name == name) return &kind;
    return nullptr;
}

nlohmann::json danger_counts(const History& history, const std::vector<std::int64_t>& partner) {
    const DangerRecord record(history, partner);
    nlohmann::json counts = nlohmann::json::object();
    for (const DangerKind& kind : danger_kinds()) counts[std::string(kind.name)] = kind.count(record);
    return counts;
}

}  // namespace lockcheck
