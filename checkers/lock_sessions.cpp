#include "checkers/lock_sessions.hpp"

#include "checkers/fault_targets.hpp"

#include <algorithm>
#include <exception>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <utility>

namespace lockcheck {

std::int64_t LockSession::certainly_valid_until(std::int64_t at_ns) const {
    if (!ttl_ms) return std::numeric_limits<std::int64_t>::max();
    std::int64_t until = std::numeric_limits<std::int64_t>::min();
    for (const LeaseTerm& term : lease_terms)
        if (term.definite && term.grant_hi_ns <= at_ns) until = std::max(until, term.end_lo());
    return until;
}

std::int64_t LockSession::possibly_valid_until(std::int64_t before_ns) const {
    if (!ttl_ms) return std::numeric_limits<std::int64_t>::max();
    std::int64_t until = std::numeric_limits<std::int64_t>::min();
    for (const LeaseTerm& term : lease_terms) {
        if (term.invoke_ns >= before_ns) break;
        if (term.definite)
            until = std::max(until, term.end_hi());
        else if (term.invoke_ns < until)  // it may have taken effect up to the end: one more ttl at most
            until = until > kNoLeaseBound - term.lease_ns - kLeaseGranularityNs
                        ? kNoLeaseBound
                        : until + term.lease_ns + kLeaseGranularityNs;
    }
    return until;
}

bool LockSession::late_grant() const { return ttl_ms && !lease_terms.empty() && lease_terms.front().end_hi() <= start_ns; }

std::optional<int> killed_worker(const Op& op) {
    if (!op.is_nemesis() || op.f != fn::kStartFault || op.is_invoke() || !op.value.is_object() ||
        op.value.value("fault", "") != "kill-holder")
        return std::nullopt;
    const auto targets = op.value.find("targets");
    if (targets == op.value.end() || !targets->is_array()) return std::nullopt;
    for (const auto& t : *targets)
        if (t.is_string())
            if (auto process = targeted_worker(t.get_ref<const std::string&>())) return process;
    return std::nullopt;
}

std::vector<LockSession> extract_sessions(const History& history, const std::vector<std::int64_t>& partner) {
    std::vector<LockSession> done;
    std::map<std::pair<int, std::string>, LockSession> open;  // (process, key) -> session
    std::map<std::pair<int, std::string>, int> unbalanced;    // entries not yet released
    std::map<int, std::size_t> last_op;                       // process -> position of its last op
    const std::int64_t end_of_history = history.empty() ? 0 : history.back().time;
    std::map<int, std::size_t> killed;  // process -> kill-holder completion that killed it
    ReplyDelays delays;
    // The term granted by the acquire or renew answered at `p` (invoke at `invoke`).
    const auto term_of = [&](std::size_t invoke, std::size_t p, std::int64_t ttl_ms) {
        const Op& inv = history[invoke];
        const Op* completion = p == invoke ? nullptr : &history[p];
        const std::int64_t grant_hi =
            completion ? delays.grant_upper_bound(inv.process, inv.time, completion->time) : kNoLeaseBound;
        return lease_term(inv, completion, ttl_ms, grant_hi);
    };

    for (std::size_t p = 0; p < history.size(); ++p) {
        const Op& op = history[p];
        if (op.is_nemesis()) {
            if (auto process = killed_worker(op)) killed.emplace(*process, p);
            delays.observe(op);
            continue;
        }
        last_op[op.process] = p;
        const auto slot = std::make_pair(op.process, op.key);
        if (op.f == fn::kAcquire && op.type == OpType::Ok) {
            const auto invoke = static_cast<std::size_t>(partner[p]);
            const Op& inv = history[invoke];
            LockSession s;
            s.key = op.key;
            s.process = op.process;
            s.owner = inv.owner ? inv.owner : op.owner;
            s.token = op.token;
            s.acquire_invoke = invoke;
            s.acquire_ok = p;
            s.start_ns = op.time;
            s.ttl_ms = inv.ttl_ms ? inv.ttl_ms : op.ttl_ms;
            if (s.ttl_ms) s.lease_terms.push_back(term_of(invoke, p, *s.ttl_ms));
            auto existing = open.find(slot);
            if (existing != open.end()) {  // re-entrant acquire: the held session goes on, lease renewed
                auto& terms = existing->second.lease_terms;
                terms.insert(terms.end(), s.lease_terms.begin(), s.lease_terms.end());
                ++existing->second.entries;
                ++unbalanced[slot];
                continue;
            }
            open.emplace(slot, std::move(s));
            unbalanced[slot] = 1;
        } else if (op.f == fn::kRenew && op.type != OpType::Fail) {
            // A renew counts at its answer (ok or info), or at its invoke when it has none.
            const bool unanswered = op.is_invoke() && partner[p] == kNoOp;
            if (op.is_invoke() && !unanswered) continue;
            auto it = open.find(slot);
            if (it == open.end() || !it->second.ttl_ms) continue;
            const std::size_t invoke = unanswered ? p : static_cast<std::size_t>(partner[p]);
            const Op& inv = history[invoke];
            LockSession& session = it->second;
            session.lease_terms.push_back(term_of(invoke, p, inv.ttl_ms ? *inv.ttl_ms : *session.ttl_ms));
            if (op.type == OpType::Ok) {
                session.renews_ok.push_back(session.lease_terms.size() - 1);
                session.renew_ops.emplace_back(invoke, p);
            }
        } else if (op.f == fn::kRelease && op.is_invoke()) {
            auto it = open.find(slot);
            if (it == open.end()) continue;
            if (--unbalanced[slot] > 0) continue;  // leaves one entry of a re-entered lock: still held
            it->second.release_invoke = p;
            it->second.end_ns = op.time;
            done.push_back(std::move(it->second));
            open.erase(it);
        }
    }
    for (auto& [slot, s] : open) {
        const std::size_t last = last_op.at(s.process);
        const Op& final_op = history[last];
        const auto kill = killed.find(s.process);
        if (kill != killed.end() && kill->second > s.acquire_ok) {  // SIGKILLed while holding: it holds no more
            s.lost_at = kill->second;
            s.end_ns = history[kill->second].time;
        } else if (!final_op.is_invoke() && final_op.type != OpType::Ok) {  // the process was lost while holding
            s.lost_at = last;
            s.end_ns = final_op.time;
        } else {
            s.end_ns = end_of_history;
            s.held_at_end = true;
        }
        done.push_back(std::move(s));
    }
    std::sort(done.begin(), done.end(), [](const LockSession& a, const LockSession& b) {
        return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.acquire_ok < b.acquire_ok;
    });
    return done;
}

}  // namespace lockcheck
