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

namespace {

/// extract_sessions, one op at a time: the sessions still open per
/// (process, key), and what ends them when the history does.
class SessionExtractor {
public:
    SessionExtractor(const History& history, const std::vector<std::int64_t>& partner)
        : history_(history), partner_(partner) {}

    void observe(std::size_t p) {
        const Op& op = history_[p];
        if (op.is_nemesis()) {
            if (auto process = killed_worker(op)) killed_.emplace(*process, p);
            delays_.observe(op);
            return;
        }
        last_op_[op.process] = p;
        if (op.f == fn::kAcquire && op.type == OpType::Ok)
            acquired(p);
        else if (op.f == fn::kRenew && op.type != OpType::Fail)
            renewed(p);
        else if (op.f == fn::kRelease && op.is_invoke())
            released(p);
    }

    /// Every session, those still open ended by what the history says of
    /// their process, by start.
    std::vector<LockSession> finish() {
        const std::int64_t end_of_history = history_.empty() ? 0 : history_.back().time;
        for (auto& [slot, s] : open_) {
            const std::size_t last = last_op_.at(s.process);
            const Op& final_op = history_[last];
            const auto kill = killed_.find(s.process);
            if (kill != killed_.end() && kill->second > s.acquire_ok) {  // SIGKILLed while holding: it holds no more
                s.lost_at = kill->second;
                s.end_ns = history_[kill->second].time;
            } else if (!final_op.is_invoke() && final_op.type != OpType::Ok) {  // the process was lost while holding
                s.lost_at = last;
                s.end_ns = final_op.time;
            } else {
                s.end_ns = end_of_history;
                s.held_at_end = true;
            }
            done_.push_back(std::move(s));
        }
        open_.clear();
        std::sort(done_.begin(), done_.end(), [](const LockSession& a, const LockSession& b) {
            return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.acquire_ok < b.acquire_ok;
        });
        return std::move(done_);
    }

private:
    using Slot = std::pair<int, std::string>;  // (process, key)

    /// The term granted by the acquire or renew answered at `p` (invoke at `invoke`).
    LeaseTerm term_of(std::size_t invoke, std::size_t p, std::int64_t ttl_ms) {
        const Op& inv = history_[invoke];
        const Op* completion = p == invoke ? nullptr : &history_[p];
        const std::int64_t grant_hi =
            completion ? delays_.grant_upper_bound(inv.process, inv.time, completion->time) : kNoLeaseBound;
        return lease_term(inv, completion, ttl_ms, grant_hi);
    }

    void acquired(std::size_t p) {
        const Op& op = history_[p];
        const Slot slot{op.process, op.key};
        const auto invoke = static_cast<std::size_t>(partner_[p]);
        const Op& inv = history_[invoke];
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
        auto existing = open_.find(slot);
        if (existing != open_.end()) {  // re-entrant acquire: the held session goes on, lease renewed
            auto& terms = existing->second.lease_terms;
            terms.insert(terms.end(), s.lease_terms.begin(), s.lease_terms.end());
            ++existing->second.entries;
            ++unbalanced_[slot];
            return;
        }
        open_.emplace(slot, std::move(s));
        unbalanced_[slot] = 1;
    }

    void renewed(std::size_t p) {
        const Op& op = history_[p];
        // A renew counts at its answer (ok or info), or at its invoke when it has none.
        const bool unanswered = op.is_invoke() && partner_[p] == kNoOp;
        if (op.is_invoke() && !unanswered) return;
        auto it = open_.find(Slot{op.process, op.key});
        if (it == open_.end() || !it->second.ttl_ms) return;
        const std::size_t invoke = unanswered ? p : static_cast<std::size_t>(partner_[p]);
        const Op& inv = history_[invoke];
        LockSession& session = it->second;
        session.lease_terms.push_back(term_of(invoke, p, inv.ttl_ms ? *inv.ttl_ms : *session.ttl_ms));
        if (op.type == OpType::Ok) {
            session.renews_ok.push_back(session.lease_terms.size() - 1);
            session.renew_ops.emplace_back(invoke, p);
        }
    }

    void released(std::size_t p) {
        const Op& op = history_[p];
        const Slot slot{op.process, op.key};
        auto it = open_.find(slot);
        if (it == open_.end()) return;
        if (--unbalanced_[slot] > 0) return;  // leaves one entry of a re-entered lock: still held
        it->second.release_invoke = p;
        it->second.end_ns = op.time;
        done_.push_back(std::move(it->second));
        open_.erase(it);
    }

    const History& history_;
    const std::vector<std::int64_t>& partner_;
    std::vector<LockSession> done_;
    std::map<Slot, LockSession> open_;
    std::map<Slot, int> unbalanced_;       // entries not yet released
    std::map<int, std::size_t> last_op_;  // process -> position of its last op
    std::map<int, std::size_t> killed_;   // process -> kill-holder completion that killed it
    ReplyDelays delays_;
};

}  // namespace

std::vector<LockSession> extract_sessions(const History& history, const std::vector<std::int64_t>& partner) {
    SessionExtractor extractor(history, partner);
    for (std::size_t p = 0; p < history.size(); ++p) extractor.observe(p);
    return extractor.finish();
}

}  // namespace lockcheck
