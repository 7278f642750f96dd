#include "checkers/lock_sessions.hpp"

#include <algorithm>
#include <exception>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <utility>

namespace lockcheck {

std::int64_t LockSession::lease_valid_until(std::int64_t at_ns) const {
    if (!ttl_ms) return std::numeric_limits<std::int64_t>::max();
    std::int64_t until = std::numeric_limits<std::int64_t>::min();
    for (const auto& [completed_ns, valid_until] : lease_marks)
        if (completed_ns <= at_ns) until = std::max(until, valid_until);
    return until;
}

std::optional<int> killed_worker(const Op& op) {
    if (!op.is_nemesis() || op.f != fn::kStartFault || op.is_invoke() || !op.value.is_object() ||
        op.value.value("fault", "") != "kill-holder")
        return std::nullopt;
    const auto targets = op.value.find("targets");
    if (targets == op.value.end() || !targets->is_array()) return std::nullopt;
    for (const auto& t : *targets) {
        if (!t.is_string()) continue;
        const std::string text = t.get<std::string>();
        constexpr std::string_view prefix = "worker ";
        if (text.rfind(prefix, 0) != 0) continue;
        try {
            std::size_t used = 0;
            const int process = std::stoi(text.substr(prefix.size()), &used);
            if (used == text.size() - prefix.size()) return process;
        } catch (const std::exception&) {}
    }
    return std::nullopt;
}

std::vector<LockSession> extract_sessions(const History& history, const std::vector<std::int64_t>& partner) {
    std::vector<LockSession> done;
    std::map<std::pair<int, std::string>, LockSession> open;  // (process, key) -> session
    std::map<std::pair<int, std::string>, int> unbalanced;    // entries not yet released
    std::map<int, std::size_t> last_op;                       // process -> position of its last op
    const std::int64_t end_of_history = history.empty() ? 0 : history.back().time;
    std::map<int, std::size_t> killed;  // process -> kill-holder completion that killed it

    for (std::size_t p = 0; p < history.size(); ++p) {
        const Op& op = history[p];
        if (op.is_nemesis()) {
            if (auto process = killed_worker(op)) killed.emplace(*process, p);
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
            if (s.ttl_ms) s.lease_marks.emplace_back(op.time, inv.time + *s.ttl_ms * 1'000'000 - kLeaseGranularityNs);
            auto existing = open.find(slot);
            if (existing != open.end()) {  // re-entrant acquire: the held session goes on, lease renewed
                existing->second.lease_marks.insert(existing->second.lease_marks.end(), s.lease_marks.begin(),
                                                    s.lease_marks.end());
                ++existing->second.entries;
                ++unbalanced[slot];
                continue;
            }
            open.emplace(slot, std::move(s));
            unbalanced[slot] = 1;
        } else if (op.f == fn::kRenew && op.type == OpType::Ok) {
            auto it = open.find(slot);
            if (it == open.end()) continue;
            const Op& inv = history[static_cast<std::size_t>(partner[p])];
            const std::optional<std::int64_t> ttl = inv.ttl_ms ? std::optional<std::int64_t>(inv.ttl_ms) : it->second.ttl_ms;
            if (ttl) it->second.lease_marks.emplace_back(op.time, inv.time + *ttl * 1'000'000 - kLeaseGranularityNs);
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
