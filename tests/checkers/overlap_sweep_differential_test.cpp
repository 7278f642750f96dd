// sweep_overlaps (checkers/overlap_sweep.hpp), which counts most pairs
// without visiting them, against sweep_overlaps_pairwise, which visits
// every pair: on random sessions that overlap in the thousands (leases with
// one term, renewed ones, none, late grants, slow grants, client-reported
// ends, rolled-back transactions, sessions held at the end; coarse times so
// that ties are common) both must give the same tally: counts per class,
// the harmless pairs, the evidence kept (pair, class, order found) and the
// longest.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "checkers/overlap_sweep.hpp"

using namespace lockcheck;

namespace {

constexpr std::int64_t kMs = 1'000'000;

struct RandomSessions {
    std::vector<LockSession> sessions;
    std::vector<bool> rolled_back;
};

/// `n` sessions over `keys` keys, starting within `span_ms`, each holding up
/// to `hold_ms` (a share of them until the end).
RandomSessions random_sessions(std::mt19937& random, int n, int keys, int span_ms, int hold_ms) {
    const auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(random); };
    const auto chance = [&](int percent) { return uniform(0, 99) < percent; };
    RandomSessions out;
    const std::int64_t end_of_history = std::int64_t{span_ms + hold_ms} * kMs;
    for (int i = 0; i < n; ++i) {
        LockSession s;
        s.key = "k" + std::to_string(uniform(0, keys - 1));
        s.process = i;
        s.start_ns = uniform(0, span_ms) * kMs;
        s.held_at_end = chance(25);
        s.end_ns = s.held_at_end ? end_of_history : s.start_ns + uniform(0, hold_ms) * kMs;
        s.acquire_ok = static_cast<std::size_t>(i);
        if (chance(80)) {
            const int ttl = uniform(5, 60);
            s.ttl_ms = ttl;
            LeaseTerm acquire;
            acquire.lease_ns = ttl * kMs;
            const bool slow = chance(10);  // an acquire that took longer than its lease: not countable later
            acquire.invoke_ns = s.start_ns - uniform(0, slow ? 2 * ttl : 3) * kMs;
            acquire.grant_hi_ns = std::max(acquire.invoke_ns, s.start_ns - uniform(0, 2) * kMs);
            if (chance(10)) acquire.client_end_ns = s.start_ns + uniform(-5, ttl) * kMs;
            s.lease_terms.push_back(acquire);
            for (int renews = chance(15) ? uniform(1, 3) : 0; renews > 0; --renews) {
                LeaseTerm renew = acquire;
                renew.invoke_ns = s.start_ns + uniform(0, hold_ms) * kMs;
                renew.definite = chance(70);
                renew.grant_hi_ns = renew.definite ? renew.invoke_ns + uniform(0, 2) * kMs : kNoLeaseBound;
                renew.client_end_ns = kNoLeaseBound;
                s.lease_terms.push_back(renew);
            }
            std::sort(s.lease_terms.begin() + 1, s.lease_terms.end(),
                      [](const LeaseTerm& a, const LeaseTerm& b) { return a.invoke_ns < b.invoke_ns; });
        }
        out.sessions.push_back(std::move(s));
    }
    std::sort(out.sessions.begin(), out.sessions.end(), [](const LockSession& a, const LockSession& b) {
        return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.acquire_ok < b.acquire_ok;
    });
    for (int i = 0; i < n; ++i) out.rolled_back.push_back(chance(3));
    return out;
}

/// Checks both sweeps agree; the number of overlaps.
std::size_t expect_same_tally(const RandomSessions& r, const std::string& what) {
    const OverlapTally counted = sweep_overlaps(r.sessions, r.rolled_back);
    const OverlapTally visited = sweep_overlaps_pairwise(r.sessions, r.rolled_back);
    EXPECT_EQ(counted.by_blame, visited.by_blame) << what;
    EXPECT_EQ(counted.overlaps, visited.overlaps) << what;
    EXPECT_EQ(counted.harmless, visited.harmless) << what;
    EXPECT_EQ(counted.longest, visited.longest) << what;
    EXPECT_EQ(counted.kept.size(), visited.kept.size()) << what;
    for (std::size_t i = 0; i < std::min(counted.kept.size(), visited.kept.size()); ++i) {
        const Overlap& a = counted.kept[i];
        const Overlap& b = visited.kept[i];
        EXPECT_TRUE(a == b) << what << ": evidence " << i << ": (" << a.first << ", " << a.second << ") found "
                            << a.found << " class " << static_cast<int>(a.blame) << " overlap " << a.overlap_ns
                            << " vs (" << b.first << ", " << b.second << ") found " << b.found << " class "
                            << static_cast<int>(b.blame) << " overlap " << b.overlap_ns;
    }
    return visited.overlaps;
}

}  // namespace

TEST(OverlapSweepDifferential, CountsAndEvidenceMatchVisitingEveryPair) {
    std::mt19937 random(20261127);
    std::size_t most_overlaps = 0;
    for (int round = 0; round < 40; ++round) {
        const int n = std::uniform_int_distribution<int>(200, 1500)(random);
        const int keys = std::uniform_int_distribution<int>(1, 3)(random);
        const int span = std::uniform_int_distribution<int>(20, 400)(random);
        const int hold = std::uniform_int_distribution<int>(5, 300)(random);
        const auto sessions = random_sessions(random, n, keys, span, hold);
        most_overlaps = std::max(most_overlaps, expect_same_tally(sessions, "round " + std::to_string(round)));
    }
    EXPECT_GT(most_overlaps, 100'000u) << "the rounds must reach the counted path many times over";
}

TEST(OverlapSweepDifferential, EverySessionHeldToTheEndTiesAndStillMatches) {
    // The case that was quadratic: thousands of holders open at the end,
    // every pair of one later session the same length (ties everywhere).
    std::mt19937 random(7);
    auto sessions = random_sessions(random, 3000, 1, 50, 10);
    for (auto& s : sessions.sessions) {
        s.held_at_end = true;
        s.end_ns = 60 * kMs;
    }
    sessions.rolled_back.assign(sessions.rolled_back.size(), false);
    EXPECT_EQ(expect_same_tally(sessions, "all held at the end"), 3000u * 2999u / 2u);
}

TEST(OverlapSweepDifferential, AGraverPairFoundAfterTheEvidenceIsFullIsKept) {
    // 500 holders 10 ms apart with 5 ms leases, all held to the end: every
    // pair is after the lease expired, and long. Then two short sessions
    // 1 ms apart with 50 ms leases: the one pair within the lease, shorter
    // than every kept pair, must still displace one of them.
    RandomSessions r;
    const auto add = [&](std::int64_t start_ms, std::int64_t end_ms, bool held, int ttl) {
        LockSession s;
        s.key = "lock";
        s.process = static_cast<int>(r.sessions.size());
        s.acquire_ok = r.sessions.size();
        s.start_ns = start_ms * kMs;
        s.end_ns = end_ms * kMs;
        s.held_at_end = held;
        s.ttl_ms = ttl;
        LeaseTerm term;
        term.invoke_ns = s.start_ns - kMs;
        term.grant_hi_ns = s.start_ns;
        term.lease_ns = ttl * kMs;
        s.lease_terms.push_back(term);
        r.sessions.push_back(std::move(s));
        r.rolled_back.push_back(false);
    };
    constexpr std::int64_t kEnd = 10'000;
    for (int i = 0; i < 500; ++i) add(10 * i, kEnd, true, 5);
    add(6000, 6010, false, 50);
    add(6001, 6005, false, 50);
    expect_same_tally(r, "one late graver pair");
    const OverlapTally tally = sweep_overlaps(r.sessions, r.rolled_back);
    EXPECT_EQ(tally.by_blame[static_cast<std::size_t>(Blame::WithinLease)], 1u);
    EXPECT_TRUE(std::any_of(tally.kept.begin(), tally.kept.end(),
                            [](const Overlap& o) { return o.blame == Blame::WithinLease; }));
}
