#include "checkers/expired_grant.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "checkers/checker_names.hpp"
#include "checkers/lease_bounds.hpp"
#include "checkers/lock_history.hpp"
#include "checkers/overlap_blame.hpp"

namespace lockcheck {
namespace {

/// Why the record proves the lease was over at the ok: the client's own
/// valid_ms, or how long the reply was held back.
std::string proof(const Op& invoke, const Op& ok, const LeaseTerm& term) {
    if (ok.valid_ms && *ok.valid_ms <= 0)
        return fmt::format("its client reported valid_ms {} with the grant", *ok.valid_ms);
    return fmt::format(
        "its reply was held back {:.1f} ms by a slow-reply fault, so the lease of {} ms had certainly ended {:.1f} "
        "ms before the ok",
        static_cast<double>(ok.time - term.grant_hi_ns) / 1e6, *invoke.ttl_ms,
        static_cast<double>(ok.time - term.end_hi()) / 1e6);
}

Violation describe(const Op& invoke, const Op& ok, const LeaseTerm& term) {
    Violation v;
    v.kind = kExpiredGrant;
    v.ops = {invoke.index, ok.index};
    v.description = fmt::format(
        "worker {} answered ok to its acquire of '{}' (op {}, sent at op {}) with the lease already over: {}. "
        "Whose fault: {}",
        ok.process, std::string(invoke.key), ok.index, invoke.index, proof(invoke, ok, term),
        blame_class(Blame::ExpiredGrant).whose);
    v.details = {
        {"key", std::string(invoke.key)}, {"process", ok.process}, {"blame", blame_class(Blame::ExpiredGrant).whose}};
    if (invoke.owner) v.details["owner"] = std::string(*invoke.owner);
    if (ok.valid_ms) v.details["valid_ms"] = *ok.valid_ms;
    return v;
}

std::string expired_grant_summary(const CheckerResult& r) {
    return fmt::format("{} of {} grants answered ok with their lease already over", stat_integer(r, "expired_grants"),
                       stat_integer(r, "grants_ok"));
}

}  // namespace

CheckerResult check_expired_grant(const History& history, const std::vector<std::int64_t>& partner) {
    CheckerResult result;
    result.name = std::string(checker_name::kExpiredGrant);
    ReplyDelays delays;
    std::size_t grants_ok = 0;
    for (std::size_t p = 0; p < history.size(); ++p) {
        const Op& op = history[p];
        delays.observe(op);
        if (op.f != fn::kAcquire || op.type != OpType::Ok || partner[p] < 0) continue;
        ++grants_ok;
        const Op& invoke = history[static_cast<std::size_t>(partner[p])];
        if (!invoke.ttl_ms) continue;
        const LeaseTerm term =
            lease_term(invoke, &op, *invoke.ttl_ms, delays.grant_upper_bound(op.process, invoke.time, op.time));
        if (term.end_hi() <= op.time) result.violations.push_back(describe(invoke, op, term));
    }
    result.valid = result.violations.empty() ? Validity::Valid : Validity::Invalid;
    result.stats = {{"grants_ok", grants_ok}, {"expired_grants", result.violations.size()}};
    return result;
}

namespace {

/// The record can date a grant's lease only where a client reports valid_ms
/// or a slow-reply fault says how long replies were held back.
bool can_date_grants(const History& history) {
    return history_is_lock(history) && std::any_of(history.begin(), history.end(), [](const Op& op) {
               if (op.f == fn::kAcquire && op.type == OpType::Ok) return op.valid_ms.has_value();
               return op.is_nemesis() && op.value.is_object() && op.value.contains("reply_delay_ms");
           });
}

}  // namespace

const CheckerDescriptor& expired_grant_checker() {
    static const CheckerDescriptor descriptor{checker_name::kExpiredGrant,
                                              "acquires answered ok with their lease already over",
                                              can_date_grants,
                                              check_expired_grant,
                                              expired_grant_summary,
                                              {},
                                              "a client took a grant whose lease had already ended"};
    return descriptor;
}

}  // namespace lockcheck
