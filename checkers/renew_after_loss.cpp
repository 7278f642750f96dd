#include "checkers/renew_after_loss.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <map>
#include <optional>

#include "checkers/checker_names.hpp"
#include "checkers/lock_history.hpp"
#include "checkers/lock_sessions.hpp"
#include "checkers/overlap_blame.hpp"
#include "checkers/worker_stops.hpp"

namespace lockcheck {
namespace {

/// One definite grant of a key: its acquire's invoke and the latest instant it certainly happened by.
struct Grant {
    std::int64_t invoke_ns = 0;
    std::int64_t granted_by_ns = 0;
    std::size_t session = 0;
};

/// When one renew answered ok may have taken effect: [from_ns, by_ns], and
/// the lease it asked for. `resumed_ns`: its worker was stopped when it was
/// sent, and resumed no earlier than this (its effect is no earlier either).
struct RenewWindow {
    std::int64_t from_ns = 0;
    std::int64_t by_ns = 0;
    std::int64_t lease_ns = 0;
    std::optional<std::int64_t> resumed_ns;
};

/// The renew's effect was after the other grant in every world where the
/// server kept its promise, and some such world exists (docs/checkers.md,
/// "renew-after-loss"): (1) no world has the renew take effect before the
/// grant with the holder's hold over by then: the grant's upper bound is
/// before the renew's earliest effect + ttl - 1 ms and before the holder's
/// release was invoked; (2) some instant g before the
/// renew's latest effect lies in the grant's window at or after the earliest
/// end of the holder's lease at g (its terms certainly granted by then); and
/// (3) the holder's own grant came before the other acquire was sent (else a
/// world has the holder granted after the other owner let go, losing nothing).
bool revived_across(const History& history, const LockSession& holder, const RenewWindow& renew,
                    const Grant& other) {
    if (other.granted_by_ns >= renew.from_ns + renew.lease_ns - kLeaseGranularityNs) return false;
    // The holder's own grant may have come after the other one (an acquire in
    // flight, a waiter stopped): then it lost nothing to it.
    if (holder.lease_terms.front().grant_hi_ns > other.invoke_ns) return false;
    // The holder's release, invoked by the other grant's upper bound, may have ended the renewed hold first.
    if (holder.release_invoke && history[*holder.release_invoke].time <= other.granted_by_ns) return false;
    const std::int64_t g = std::min(other.granted_by_ns, renew.by_ns - 1);
    if (g < other.invoke_ns) return false;
    const std::int64_t holder_ends = std::max(holder.certainly_valid_until(g), holder.lease_terms.front().end_lo());
    return g >= holder_ends;
}

Violation describe(const History& history, const LockSession& holder, const LockSession& taker,
                   std::pair<std::size_t, std::size_t> renew_ops, const RenewWindow& renew,
                   const Grant& other) {
    const Op& renew_invoke = history[renew_ops.first];
    const Op& renew_ok = history[renew_ops.second];
    const bool certain = other.granted_by_ns <= renew.from_ns;
    const std::string stopped =
        renew.resumed_ns && *renew.resumed_ns > renew_invoke.time
            ? fmt::format(" (worker {} was stopped when the renew was sent and resumed {:.1f} ms after it)",
                          holder.process, static_cast<double>(*renew.resumed_ns - renew_invoke.time) / 1e6)
            : "";
    const std::string reading =
        certain ? "the renew took effect after that grant: it revived a lock its owner had lost"
                : "either the renew took effect first, and the server granted the lock within the renewed lease, or "
                  "after that grant, and the renew revived a lock its owner had lost";
    Violation v;
    v.kind = kRenewAfterLoss;
    v.ops = {history[holder.acquire_ok].index, history[taker.acquire_invoke].index, history[taker.acquire_ok].index,
             renew_invoke.index, renew_ok.index};
    v.description = fmt::format(
        "worker {} sent a renew of '{}' at op {}{} and was answered ok at op {}; worker {} was granted the lock at "
        "op {}, after worker {}'s lease could have ended and before the renewed lease could have run out: {}. "
        "Whose fault: {}",
        holder.process, holder.key, renew_invoke.index, stopped, renew_ok.index, taker.process,
        history[taker.acquire_ok].index, holder.process, reading, blame_class(Blame::RenewAfterLoss).whose);
    v.details = {{"key", holder.key},
                 {"process", holder.process},
                 {"taker_process", taker.process},
                 {"reading", certain ? "revived" : "either"},
                 {"blame", blame_class(Blame::RenewAfterLoss).whose}};
    if (holder.owner) v.details["owner"] = *holder.owner;
    if (taker.owner) v.details["taker_owner"] = *taker.owner;
    return v;
}

/// Renews of any answer (ok, fail, info or none) that were in flight when
/// another process's acquire of the same key was invoked and then granted:
/// the moment a renew-after-loss needs, whatever the client made of it.
std::size_t renews_across_grants(const History& history, const std::vector<std::int64_t>& partner,
                                 const std::map<std::string, std::vector<Grant>>& grants,
                                 const std::vector<LockSession>& sessions) {
    std::size_t count = 0;
    for (std::size_t p = 0; p < history.size(); ++p) {
        const Op& op = history[p];
        if (op.f != fn::kRenew || !op.is_invoke()) continue;
        const std::int64_t done = partner[p] >= 0 ? history[partner[p]].time : history.back().time + 1;
        const auto it = grants.find(std::string(op.key));
        if (it == grants.end()) continue;
        count += std::any_of(it->second.begin(), it->second.end(), [&](const Grant& g) {
            return sessions[g.session].process != op.process && g.invoke_ns >= op.time && g.invoke_ns < done;
        });
    }
    return count;
}

std::map<std::string, std::vector<Grant>> grants_by_key(const History& history,
                                                        const std::vector<LockSession>& sessions) {
    std::map<std::string, std::vector<Grant>> grants;  // key -> definite grants, by invoke
    for (std::size_t i = 0; i < sessions.size(); ++i) {
        const LockSession& s = sessions[i];
        const std::int64_t by = s.lease_terms.empty() ? s.start_ns : s.lease_terms.front().grant_hi_ns;
        grants[s.key].push_back({history[s.acquire_invoke].time, by, i});
    }
    for (auto& [key, list] : grants)
        std::sort(list.begin(), list.end(), [](const Grant& a, const Grant& b) { return a.invoke_ns < b.invoke_ns; });
    return grants;
}

}  // namespace

std::size_t count_renews_across_grant(const History& history, const std::vector<std::int64_t>& partner,
                                      const std::vector<LockSession>& sessions) {
    return renews_across_grants(history, partner, grants_by_key(history, sessions), sessions);
}

CheckerResult check_renew_after_loss(const History& history, const std::vector<std::int64_t>& partner) {
    CheckerResult result;
    result.name = std::string(checker_name::kRenewAfterLoss);
    const auto sessions = extract_sessions(history, partner);
    const auto grants = grants_by_key(history, sessions);
    const WorkerStops stops(history);
    std::size_t renews_ok = 0;
    for (const LockSession& s : sessions) {
        if (s.lease_terms.empty()) continue;
        const auto& list = grants.at(s.key);
        for (std::size_t r = 0; r < s.renews_ok.size(); ++r) {
            ++renews_ok;
            const LeaseTerm& term = s.lease_terms[s.renews_ok[r]];
            RenewWindow renew{term.invoke_ns, term.grant_hi_ns, term.lease_ns,
                              stops.resumed_no_earlier_than(s.process, term.invoke_ns)};
            if (renew.resumed_ns) renew.from_ns = std::clamp(*renew.resumed_ns, renew.from_ns, renew.by_ns);
            const auto taken = std::find_if(list.begin(), list.end(), [&](const Grant& g) {
                const LockSession& other = sessions[g.session];
                return other.process != s.process && other.owner != s.owner &&
                       revived_across(history, s, renew, g);
            });
            if (taken != list.end())
                result.violations.push_back(describe(history, s, sessions[taken->session], s.renew_ops[r], renew, *taken));
        }
    }
    result.valid = result.violations.empty() ? Validity::Valid : Validity::Invalid;
    result.stats = {
        {"renews_ok", renews_ok},
        {"renews_after_loss", result.violations.size()},
        {"renews_across_grant", renews_across_grants(history, partner, grants, sessions)},
        {"summary", renew_after_loss_summary(result.violations.size(), static_cast<std::int64_t>(renews_ok))}};
    return result;
}

std::string renew_after_loss_summary(std::size_t found, std::int64_t renews_ok) {
    return fmt::format("{} of {} renews answered ok revived a lock already lost", found, renews_ok);
}

namespace {

/// Renews matter only in histories that have one answered ok.
bool has_renew(const History& history) {
    return history_is_lock(history) && std::any_of(history.begin(), history.end(), [](const Op& op) {
               return op.f == fn::kRenew && op.type == OpType::Ok;
           });
}

}  // namespace

const CheckerDescriptor& renew_after_loss_checker() {
    static const CheckerDescriptor descriptor{checker_name::kRenewAfterLoss,
                                              "renews answered ok for a lock another owner had since been granted",
                                              has_renew,
                                              check_renew_after_loss,
                                              stats_summary,
                                              {},
                                              "a renew revived a lock its owner had already lost"};
    return descriptor;
}

}  // namespace lockcheck
