// The sessions of one key still open in a sweep, kept so that the pairs a
// new session makes with them can be counted per blame class without
// classifying each (checkers/overlap_sweep.hpp). The counts follow
// classify_overlap (checkers/overlap_blame.hpp) exactly for the sessions
// whose leases are simple, given a later session that is countable:
//
//   earlier kind (earlier_kind)                     pair's class with a countable later session
//   Late: its own grant came after its lease        late-grant
//   NoLease: a lock without a lease                 late-grant if the later one was late, else within-lease
//   Leased: one term (its acquire), answered ok,    late-grant if the later one was late; within-lease when
//     invoked before its ok, whose certain end      the later grant's upper bound is before the earlier
//     (end_lo) is not after its last (end_hi)       lease's certain end (end_lo); lease-expired when the
//                                                   earlier lease's last end (end_hi) is at or before the
//                                                   later acquire's invoke; else undecided
//   Visited: anything else (renewed or re-entered leases, a rolled-back transaction, ...): classified one by one
//
// A later session is countable when its grant was late, or it has no lease,
// or its ok came less than its lease (less 1 ms) after its invoke: then
// whatever an earlier session granted by the later one's ok lies within the
// later lease, which makes the rules above hold.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "checkers/lock_sessions.hpp"
#include "checkers/order_counter.hpp"
#include "checkers/overlap_blame.hpp"
#include "checkers/overlap_tally.hpp"

namespace lockcheck {

enum class EarlierKind { Late, NoLease, Leased, Visited };

/// How `session` is counted as the earlier holder of a pair (above).
EarlierKind earlier_kind(const LockSession& session, bool rolled_back);

/// Whether the pairs of `later` with sessions of the counted kinds can be counted (above).
bool countable_later(const LockSession& later);

class OpenSessionCounts {
public:
    /// For the sessions `members` (positions in `sessions`, all of one key),
    /// whose kinds are `kinds` (by position in `sessions`); none open yet.
    OpenSessionCounts(const std::vector<LockSession>& sessions, const std::vector<EarlierKind>& kinds,
                      const std::vector<std::size_t>& members);

    void insert(std::size_t session);
    void erase(std::size_t session);

    /// The pairs `later` (countable_later) makes with the open sessions of
    /// the counted kinds, per class (index: Blame).
    std::array<std::size_t, kBlameClasses> count_pairs(const LockSession& later) const;

    /// How many open sessions, of any kind, come before `open` in the sweep's order.
    std::size_t rank(const OpenSession& open) const { return order_.below(open); }
    /// The open sessions of the counted kinds, and of kind Visited, in the sweep's order.
    const std::set<OpenSession>& counted() const { return counted_; }
    const std::set<OpenSession>& visited() const { return visited_; }

private:
    using Bound = std::pair<std::int64_t, std::size_t>;  ///< (instant, session): distinct per session

    void switch_session(std::size_t session, std::int32_t delta);

    const std::vector<LockSession>& sessions_;
    const std::vector<EarlierKind>& kinds_;
    OrderCounter<OpenSession> order_;
    OrderCounter<Bound> certain_ends_;  ///< Leased: end_lo of their term
    OrderCounter<Bound> last_ends_;     ///< Leased: end_hi of their term
    std::size_t late_ = 0, no_lease_ = 0;
    std::set<OpenSession> counted_, visited_;
};

}  // namespace lockcheck
