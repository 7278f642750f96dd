#include "checkers/overlap_tally.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

namespace lockcheck {

int gravity(Blame blame) {
    switch (blame) {
        case Blame::WithinLease: return 3;
        case Blame::Uncertain: return 2;
        case Blame::LateGrant:
        case Blame::GrantWithoutOwnKey: return 1;
        default: return 0;
    }
}

bool graver(const Overlap& a, const Overlap& b) {
    // The earlier found wins a tie: the kept set then does not depend on the order pairs are offered in.
    return std::tuple(gravity(a.blame), a.overlap_ns, b.found) > std::tuple(gravity(b.blame), b.overlap_ns, a.found);
}

void OverlapEvidence::offer(const Overlap& o) {
    ++tally_.by_blame[static_cast<std::size_t>(o.blame)];
    note_length(o);
    list_.offer(o);
}

void OverlapEvidence::count(Blame blame, std::size_t n) {
    tally_.by_blame[static_cast<std::size_t>(blame)] += n;
    list_.count(n);
}

void OverlapEvidence::consider(const Overlap& o) { list_.consider(o); }

void OverlapEvidence::note_length(const Overlap& o) {
    auto& longest = tally_.longest;
    if (!longest || o.overlap_ns > longest->overlap_ns ||
        (o.overlap_ns == longest->overlap_ns && o.found < longest->found))
        longest = o;
}

OverlapTally OverlapEvidence::take() && {
    OverlapTally tally = std::move(tally_);
    tally.overlaps = list_.total();
    tally.kept = std::move(list_).take();
    const auto& longest = tally.longest;
    if (longest &&
        std::none_of(tally.kept.begin(), tally.kept.end(), [&](const Overlap& o) { return o.found == longest->found; }))
        tally.kept.push_back(*longest);
    std::sort(tally.kept.begin(), tally.kept.end(),
              [](const Overlap& a, const Overlap& b) { return a.found < b.found; });
    return tally;
}

void offer_every_pair(const std::vector<LockSession>& sessions, const std::vector<bool>& rolled_back,
                      const std::set<OpenSession>& open, std::size_t later, OverlapEvidence& evidence) {
    const LockSession& s = sessions[later];
    for (const OpenSession& earlier : open) {
        const LockSession& first = sessions[earlier.session];
        const Overlap o{earlier.session, later, evidence.total(), evidence.classify(first, s),
                        std::min(first.end_ns, s.end_ns) - s.start_ns};
        if (o.blame != Blame::WithinLease && o.blame != Blame::LateGrant && rolled_back[earlier.session]) {
            evidence.harmless();  // the earlier holder's transaction committed nothing (transactional_sessions.hpp)
            continue;
        }
        evidence.offer(o);
    }
}

OverlapTally sweep_overlaps_pairwise(const std::vector<LockSession>& sessions, const std::vector<bool>& rolled_back) {
    OverlapEvidence evidence;
    std::map<std::string, std::set<OpenSession>> active;  // key -> sessions still open
    for (std::size_t i = 0; i < sessions.size(); ++i) {
        auto& open = active[sessions[i].key];
        while (!open.empty() && open.begin()->ended_by(sessions[i].start_ns)) open.erase(open.begin());
        offer_every_pair(sessions, rolled_back, open, i, evidence);
        open.insert(open_session(sessions, i));
    }
    return std::move(evidence).take();
}

}  // namespace lockcheck
