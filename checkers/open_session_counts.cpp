#include "checkers/open_session_counts.hpp"

#include <limits>

namespace lockcheck {
namespace {

/// The Leased kind's one term.
const LeaseTerm& only_term(const LockSession& session) { return session.lease_terms.front(); }

std::vector<OpenSession> open_order(const std::vector<LockSession>& sessions, const std::vector<std::size_t>& members) {
    std::vector<OpenSession> values;
    values.reserve(members.size());
    for (const std::size_t i : members) values.push_back(open_session(sessions, i));
    return values;
}

template <typename End>
std::vector<std::pair<std::int64_t, std::size_t>> leased_bounds(const std::vector<LockSession>& sessions,
                                                                const std::vector<EarlierKind>& kinds,
                                                                const std::vector<std::size_t>& members, End end) {
    std::vector<std::pair<std::int64_t, std::size_t>> values;
    for (const std::size_t i : members)
        if (kinds[i] == EarlierKind::Leased) values.emplace_back(end(only_term(sessions[i])), i);
    return values;
}

constexpr std::size_t kAfterEverySession = std::numeric_limits<std::size_t>::max();

}  // namespace

EarlierKind earlier_kind(const LockSession& session, bool rolled_back) {
    if (rolled_back) return EarlierKind::Visited;
    if (session.late_grant()) return EarlierKind::Late;
    if (!session.ttl_ms) return EarlierKind::NoLease;
    if (session.lease_terms.size() != 1) return EarlierKind::Visited;
    const LeaseTerm& term = only_term(session);
    return term.definite && term.invoke_ns < session.start_ns && term.end_lo() <= term.end_hi() ? EarlierKind::Leased
                                                                                                : EarlierKind::Visited;
}

bool countable_later(const LockSession& later) {
    if (later.late_grant() || !later.ttl_ms || later.lease_terms.empty()) return true;
    const LeaseTerm& term = later.lease_terms.front();
    return later.start_ns - term.invoke_ns < term.lease_ns - kLeaseGranularityNs;
}

OpenSessionCounts::OpenSessionCounts(const std::vector<LockSession>& sessions, const std::vector<EarlierKind>& kinds,
                                     const std::vector<std::size_t>& members)
    : sessions_(sessions),
      kinds_(kinds),
      order_(open_order(sessions, members)),
      certain_ends_(leased_bounds(sessions, kinds, members, [](const LeaseTerm& t) { return t.end_lo(); })),
      last_ends_(leased_bounds(sessions, kinds, members, [](const LeaseTerm& t) { return t.end_hi(); })) {}

void OpenSessionCounts::insert(std::size_t session) { switch_session(session, +1); }
void OpenSessionCounts::erase(std::size_t session) { switch_session(session, -1); }

void OpenSessionCounts::switch_session(std::size_t session, std::int32_t delta) {
    const OpenSession open = open_session(sessions_, session);
    order_.add(open, delta);
    const EarlierKind kind = kinds_[session];
    auto& set = kind == EarlierKind::Visited ? visited_ : counted_;
    if (delta > 0)
        set.insert(open);
    else
        set.erase(open);
    if (kind == EarlierKind::Late) late_ = delta > 0 ? late_ + 1 : late_ - 1;
    if (kind == EarlierKind::NoLease) no_lease_ = delta > 0 ? no_lease_ + 1 : no_lease_ - 1;
    if (kind == EarlierKind::Leased) {
        const LeaseTerm& term = only_term(sessions_[session]);
        certain_ends_.add({term.end_lo(), session}, delta);
        last_ends_.add({term.end_hi(), session}, delta);
    }
}

std::array<std::size_t, kBlameClasses> OpenSessionCounts::count_pairs(const LockSession& later) const {
    std::array<std::size_t, kBlameClasses> by{};
    const auto at = [&](Blame blame) -> std::size_t& { return by[static_cast<std::size_t>(blame)]; };
    if (later.late_grant()) {
        at(Blame::LateGrant) = counted_.size();
        return by;
    }
    const bool leased = later.ttl_ms && !later.lease_terms.empty();
    const std::int64_t later_from = leased ? later.lease_terms.front().invoke_ns : later.start_ns;
    const std::int64_t later_by = leased ? later.lease_terms.front().grant_hi_ns : later.start_ns;
    // Leased: within the lease when the later grant came before the earlier lease's certain end ...
    const std::size_t within = certain_ends_.size() - certain_ends_.below({later_by, kAfterEverySession});
    // ... expired when its last end came by the later invoke (never both: end_lo <= end_hi, invoke <= grant).
    const std::size_t expired = last_ends_.below({later_from, kAfterEverySession});
    at(Blame::LateGrant) = late_;
    at(Blame::WithinLease) = no_lease_ + within;
    at(Blame::LeaseExpired) = expired;
    at(Blame::Uncertain) = counted_.size() - late_ - no_lease_ - within - expired;
    return by;
}

}  // namespace lockcheck
