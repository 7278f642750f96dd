#include "checkers/renew_after_loss.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <map>

#include "checkers/checker_names.hpp"
#include "checkers/lock_history.hpp"
#include "checkers/lock_sessions.hpp"
#include "checkers/overlap_blame.hpp"

namespace lockcheck {
namespace {

/// One definite grant of a key: its acquire's invoke and the latest instant it certainly happened by.
struct Grant {
    std::int64_t invoke_ns = 0;
    std::int64_t granted_by_ns = 0;
    std::size_t session = 0;
};

Violation describe(const History& history, const LockSession& lost, const LockSession& taker,
                   std::pair<std::size_t, std::size_t> renew, std::int64_t lease_over_by) {
    const Op& renew_invoke = history[renew.first];
    Violation v;
    v.kind = kRenewAfterLoss;
    v.ops = {history[lost.acquire_ok].index, history[taker.acquire_invoke].index, history[taker.acquire_ok].index,
             renew_invoke.index, history[renew.second].index};
    v.description = fmt::format(
        "worker {} renewed '{}' at op {} and was answered ok, although its lease had certainly ended {:.1f} ms "
        "before worker {} was granted the lock at op {}. Whose fault: {}",
        lost.process, lost.key, history[renew.second].index,
        static_cast<double>(history[taker.acquire_invoke].time - lease_over_by) / 1e6, taker.process,
        history[taker.acquire_ok].index, blame_class(Blame::RenewAfterLoss).whose);
    v.details = {{"key", lost.key},
                 {"process", lost.process},
                 {"taker_process", taker.process},
                 {"blame", blame_class(Blame::RenewAfterLoss).whose}};
    if (lost.owner) v.details["owner"] = *lost.owner;
    if (taker.owner) v.details["taker_owner"] = *taker.owner;
    return v;
}

}  // namespace

CheckerResult check_renew_after_loss(const History& history, const std::vector<std::int64_t>& partner) {
    CheckerResult result;
    result.name = std::string(checker_name::kRenewAfterLoss);
    const auto sessions = extract_sessions(history, partner);
    std::map<std::string, std::vector<Grant>> grants;  // key -> definite grants, by invoke
    for (std::size_t i = 0; i < sessions.size(); ++i) {
        const LockSession& s = sessions[i];
        const std::int64_t by = s.lease_terms.empty() ? s.start_ns : s.lease_terms.front().grant_hi_ns;
        grants[s.key].push_back({history[s.acquire_invoke].time, by, i});
    }
    for (auto& [key, list] : grants)
        std::sort(list.begin(), list.end(), [](const Grant& a, const Grant& b) { return a.invoke_ns < b.invoke_ns; });

    std::size_t renews_ok = 0;
    for (const LockSession& s : sessions) {
        for (std::size_t r = 0; r < s.renews_ok.size(); ++r) {
            ++renews_ok;
            const std::int64_t renew_invoke = s.lease_terms[s.renews_ok[r]].invoke_ns;
            const std::int64_t over_by = s.possibly_valid_until(renew_invoke);
            if (over_by >= renew_invoke) continue;  // the lease may still have run: the renew is in time
            const auto& list = grants[s.key];
            auto it = std::lower_bound(list.begin(), list.end(), over_by,
                                       [](const Grant& g, std::int64_t t) { return g.invoke_ns < t; });
            for (; it != list.end() && it->invoke_ns < renew_invoke; ++it) {
                const LockSession& taker = sessions[it->session];
                if (it->granted_by_ns > renew_invoke || taker.owner == s.owner) continue;
                result.violations.push_back(describe(history, s, taker, s.renew_ops[r], over_by));
                break;
            }
        }
    }
    result.valid = result.violations.empty() ? Validity::Valid : Validity::Invalid;
    result.stats = {{"renews_ok", renews_ok},
                    {"renews_after_loss", result.violations.size()},
                    {"summary", fmt::format("{} of {} renews answered ok revived a lock already lost",
                                            result.violations.size(), renews_ok)}};
    return result;
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
