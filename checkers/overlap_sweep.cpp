#include "checkers/overlap_sweep.hpp"

#include <algorithm>
#include <iterator>
#include <memory>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>

#include "checkers/open_session_counts.hpp"

namespace lockcheck {
namespace {

/// One key's part of the sweep.
struct KeySweep {
    std::vector<std::size_t> members;           ///< every session of the key
    std::set<OpenSession> open;                 ///< its sessions still open
    std::unique_ptr<OpenSessionCounts> counts;  ///< made the first time a session's pairs are counted
};

/// The pairs of session `later` with the open sessions of its key, counted (count_pairs) or classified.
class CountedPairs {
public:
    CountedPairs(const std::vector<LockSession>& sessions, const OpenSessionCounts& counts, std::size_t later,
                 OverlapEvidence& evidence)
        : sessions_(sessions),
          counts_(counts),
          later_(later),
          s_(sessions[later]),
          evidence_(evidence),
          base_(evidence.total()) {}

    /// Counts every pair and offers those that can be evidence.
    void tally(const std::vector<bool>& rolled_back) {
        // The threshold of the gravest before this session: pairs found now lose a tie with any kept.
        if (const Overlap* least = evidence_.least_grave_kept()) threshold_ = *least;
        take_visited(rolled_back);
        const auto by = counts_.count_pairs(s_);
        for (std::size_t c = 0; c < by.size(); ++c) evidence_.count(static_cast<Blame>(c), by[c]);
        for (const Overlap& o : visited_) {
            evidence_.count(o.blame, 1);
            evidence_.consider(o);
            evidence_.note_length(o);
        }
        note_longest_counted();
        consider_gravest_counted(by);
    }

private:
    Overlap pair_with(const OpenSession& earlier) {
        const LockSession& first = sessions_[earlier.session];
        const auto harmless_before =
            static_cast<std::size_t>(std::lower_bound(harmless_.begin(), harmless_.end(), earlier) - harmless_.begin());
        return {earlier.session, later_, base_ + counts_.rank(earlier) - harmless_before, evidence_.classify(first, s_),
                std::min(first.end_ns, s_.end_ns) - s_.start_ns};
    }

    /// The open sessions of kind Visited, classified one by one as the pairwise sweep does.
    void take_visited(const std::vector<bool>& rolled_back) {
        for (const OpenSession& earlier : counts_.visited()) {
            const Overlap o = pair_with(earlier);
            if (o.blame != Blame::WithinLease && o.blame != Blame::LateGrant && rolled_back[earlier.session]) {
                evidence_.harmless();
                harmless_.push_back(earlier);  // every harmless pair is one of these: the found after it is one less
                continue;
            }
            visited_.push_back(o);  // harmless_ holds every harmless pair before it already (the set is in order)
        }
    }

    /// The first of the longest counted pairs: the first open session ending
    /// at or after the later one, or else the first of those ending last.
    void note_longest_counted() {
        const auto& counted = counts_.counted();
        if (counted.empty()) return;
        auto it = counted.lower_bound({s_.end_ns, false, 0});
        if (it == counted.end()) it = counted.lower_bound({std::prev(counted.end())->end_ns, false, 0});
        evidence_.note_length(pair_with(*it));
    }

    /// Offers the counted pairs that could be among the gravest: all while
    /// fewer are kept, else those of a graver class than the least grave
    /// kept, and those of its class that are longer.
    void consider_gravest_counted(const std::array<std::size_t, kBlameClasses>& by) {
        const auto& counted = counts_.counted();
        if (!threshold_) {
            for (const OpenSession& earlier : counted) evidence_.consider(pair_with(earlier));
            return;
        }
        const int least = gravity(threshold_->blame);
        std::size_t graver_left = 0, as_grave_left = 0;  // pairs of graver classes, of its class, not yet seen
        for (std::size_t c = 0; c < by.size(); ++c) {
            const int g = gravity(static_cast<Blame>(c));
            if (g > least) graver_left += by[c];
            if (g == least) as_grave_left += by[c];
        }
        for (auto it = counted.rbegin(); it != counted.rend(); ++it) {
            const std::int64_t overlap = std::min(it->end_ns, s_.end_ns) - s_.start_ns;  // never grows from here
            if (graver_left == 0 && (as_grave_left == 0 || overlap <= threshold_->overlap_ns)) break;
            const Overlap o = pair_with(*it);
            const int g = gravity(o.blame);
            if (g > least) {
                --graver_left;
                evidence_.consider(o);
            } else if (g == least) {
                --as_grave_left;
                if (o.overlap_ns > threshold_->overlap_ns) evidence_.consider(o);
            }
        }
    }

    const std::vector<LockSession>& sessions_;
    const OpenSessionCounts& counts_;
    std::size_t later_;
    const LockSession& s_;
    OverlapEvidence& evidence_;
    std::size_t base_;
    std::optional<Overlap> threshold_;
    std::vector<OpenSession> harmless_;
    std::vector<Overlap> visited_;
};

}  // namespace

OverlapTally sweep_overlaps(const std::vector<LockSession>& sessions, const std::vector<bool>& rolled_back) {
    std::vector<EarlierKind> kinds;
    kinds.reserve(sessions.size());
    std::vector<KeySweep> keys;
    std::vector<std::size_t> key_of;  // per session: its key's place in keys
    key_of.reserve(sessions.size());
    std::unordered_map<std::string_view, std::size_t> key_index;
    for (std::size_t i = 0; i < sessions.size(); ++i) {
        kinds.push_back(earlier_kind(sessions[i], rolled_back[i]));
        const auto [at, fresh] = key_index.try_emplace(sessions[i].key, keys.size());
        if (fresh) keys.emplace_back();
        key_of.push_back(at->second);
        keys[at->second].members.push_back(i);
    }
    OverlapEvidence evidence;
    for (std::size_t i = 0; i < sessions.size(); ++i) {
        const LockSession& s = sessions[i];
        KeySweep& key = keys[key_of[i]];
        while (!key.open.empty() && key.open.begin()->ended_by(s.start_ns)) {
            if (key.counts) key.counts->erase(key.open.begin()->session);
            key.open.erase(key.open.begin());
        }
        if (key.open.size() <= kVisitedAlone || evidence.total() < kFirstOverlapsKept || !countable_later(s)) {
            offer_every_pair(sessions, rolled_back, key.open, i, evidence);
        } else {
            if (!key.counts) {
                key.counts = std::make_unique<OpenSessionCounts>(sessions, kinds, key.members);
                for (const OpenSession& o : key.open) key.counts->insert(o.session);
            }
            CountedPairs(sessions, *key.counts, i, evidence).tally(rolled_back);
        }
        key.open.insert(open_session(sessions, i));
        if (key.counts) key.counts->insert(i);
    }
    return std::move(evidence).take();
}

}  // namespace lockcheck
