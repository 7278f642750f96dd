// The overlapping pairs of lock sessions the mutual-exclusion checker
// counts and the few it keeps as evidence (checkers/mutual_exclusion.hpp):
// every pair is counted per blame class; kept are the first
// kFirstOverlapsKept found, the kGravestOverlapsKept gravest of the rest
// (graver: by class, then the longer, then the one found first) and the
// longest of all (the first found among the longest).
//
// "Found" is the order of the sweep that visits every pair
// (sweep_overlaps_pairwise): sessions in start order, and for each the
// sessions of its key still open, by end. checkers/overlap_sweep.hpp gives
// the same tally without visiting every pair.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <vector>

#include "checkers/evidence_list.hpp"
#include "checkers/lock_sessions.hpp"
#include "checkers/overlap_blame.hpp"

namespace lockcheck {

/// One overlapping pair, as cheap as counting it: the Violation (text and
/// JSON) is built only for the pairs kept as evidence.
struct Overlap {
    std::size_t first = 0, second = 0;  ///< sessions: the earlier holder and the later one
    std::size_t found = 0;              ///< its place in the order of the pairwise sweep
    Blame blame = Blame::Uncertain;
    std::int64_t overlap_ns = 0;
    bool operator==(const Overlap&) const = default;
};

/// Pairs listed as evidence besides the first ones found and the longest.
inline constexpr std::size_t kFirstOverlapsKept = 100;
inline constexpr std::size_t kGravestOverlapsKept = 100;

/// How grave a class is when evidence must be chosen: the server's broken
/// promise first, then what may be one, then the client's bug, then the
/// price of the recipe.
int gravity(Blame blame);

/// Whether `a` is the graver overlap: by class, then the longer, then the
/// one found first (a strict total order).
bool graver(const Overlap& a, const Overlap& b);

/// What a sweep found.
struct OverlapTally {
    std::array<std::size_t, kBlameClasses> by_blame{};  ///< overlaps per class
    std::size_t overlaps = 0;                           ///< every overlap counted (not the harmless ones)
    std::size_t harmless = 0;                           ///< with a rolled-back earlier transaction
    std::vector<Overlap> kept;                          ///< the evidence, in the order found
    std::optional<Overlap> longest;
    /// Pairs classified one by one (classify_overlap): every pair for the
    /// pairwise sweep, few for sweep_overlaps.
    std::size_t classified = 0;
    bool operator==(const OverlapTally&) const = default;
};

/// Collects a tally as pairs are counted and offered.
class OverlapEvidence {
public:
    /// A pair in the order found: counted, and kept when it is among the first or the gravest.
    void offer(const Overlap& o);
    /// `n` pairs of class `blame`, found but not offered one by one (only once
    /// kFirstOverlapsKept were offered).
    void count(Blame blame, std::size_t n);
    /// A pair already counted that may be among the gravest.
    void consider(const Overlap& o);
    /// A pair already counted that may be the longest (the first found among the longest).
    void note_length(const Overlap& o);
    /// One more harmless pair.
    void harmless() { ++tally_.harmless; }
    /// What the record proves about the pair of `first` and `later`
    /// (classify_overlap), counted in OverlapTally::classified.
    Blame classify(const LockSession& first, const LockSession& later) {
        ++tally_.classified;
        return classify_overlap(first, later).blame;
    }
    /// Pairs counted so far: the `found` of the next one.
    std::size_t total() const { return list_.total(); }
    /// The least grave of the gravest kept; nullptr while fewer than kGravestOverlapsKept are.
    const Overlap* least_grave_kept() const { return list_.least_bad_kept(); }
    const std::optional<Overlap>& longest() const { return tally_.longest; }
    OverlapTally take() &&;

private:
    EvidenceList<Overlap, decltype(&graver)> list_{kFirstOverlapsKept, kGravestOverlapsKept, &graver};
    OverlapTally tally_;
};

/// A session still open in a sweep, ordered by when it ends; one held when
/// the history ended sorts after every session that ended at the last record.
struct OpenSession {
    std::int64_t end_ns = 0;
    bool held_at_end = false;
    std::size_t session = 0;
    auto operator<=>(const OpenSession&) const = default;
    /// Whether it was over by the time a session started at `start_ns`.
    bool ended_by(std::int64_t start_ns) const { return end_ns < start_ns || (end_ns == start_ns && !held_at_end); }
};

/// `session`'s place in a sweep's open set.
inline OpenSession open_session(const std::vector<LockSession>& sessions, std::size_t session) {
    return {sessions[session].end_ns, sessions[session].held_at_end, session};
}

/// Offers every pair of session `later` with the sessions of its key still
/// `open` when it started, in their order; a pair whose earlier holder's
/// transaction was rolled back, unless within the lease or a late grant, is
/// harmless.
void offer_every_pair(const std::vector<LockSession>& sessions, const std::vector<bool>& rolled_back,
                      const std::set<OpenSession>& open, std::size_t later, OverlapEvidence& evidence);

/// The tally by visiting every overlapping pair: linear in the pairs, which
/// are quadratic in the sessions held at once. The reference for
/// sweep_overlaps (tests/checkers/overlap_sweep_differential_test.cpp), and
/// its path for a session that meets few others. `rolled_back`: per session
/// (checkers/transactional_sessions.hpp).
OverlapTally sweep_overlaps_pairwise(const std::vector<LockSession>& sessions, const std::vector<bool>& rolled_back);

}  // namespace lockcheck
