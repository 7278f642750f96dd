// Differential test: the fast path and the search against the brute-force
// reference on thousands of small random histories (seeded, reproducible);
// and the mutual-exclusion checker against the same reference on histories
// cut off mid-hold.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <random>

#include "checkers/brute_force_lock_checker.hpp"
#include "checkers/linearizability.hpp"
#include "checkers/mutual_exclusion.hpp"
#include "tests/support/random_lock_history.hpp"

using namespace lockcheck;
using lockcheck::testing::RandomHistoryOptions;

namespace {

// The sub-history made of the listed records (whole ops: both halves are listed).
History restrict_to(const History& h, const std::vector<std::int64_t>& indices) {
    History out;
    for (auto i : indices) out.push_back(h[static_cast<std::size_t>(i)]);
    return out;
}

struct Tally {
    int valid = 0, invalid = 0, fast = 0, searched = 0;
    ~Tally() {
        std::cout << "[ tally    ] " << valid << " linearizable, " << invalid
                  << " not; keys decided by the fast path: " << fast << ", by the search: " << searched << "\n";
    }
};

void compare(const History& h, std::uint64_t seed, Tally& tally) {
    const auto partner = pair_ops(h);
    const Validity expected = brute_force_lock_check(h);
    ASSERT_NE(expected, Validity::Unknown) << "seed " << seed;
    const auto automatic = check_linearizability(h, partner);
    LinearizabilityOptions forced;
    forced.force_search = true;
    const auto searched = check_linearizability(h, partner, forced);
    ASSERT_EQ(automatic.valid, expected) << "seed " << seed << " (automatic)";
    ASSERT_EQ(searched.valid, expected) << "seed " << seed << " (search)";
    (expected == Validity::Valid ? tally.valid : tally.invalid)++;
    tally.fast += automatic.stats["keys_fast_path"].get<int>();
    tally.searched += automatic.stats["keys_searched"].get<int>();
    for (const auto& v : automatic.violations) {
        if (v.details["method"] != "fast") continue;
        // Fast-path proofs list whole ops; alone they must not be linearizable.
        EXPECT_EQ(brute_force_lock_check(restrict_to(h, v.ops)), Validity::Invalid)
            << "seed " << seed << ": witness of " << v.kind << " is linearizable";
    }
    for (const auto& v : searched.violations) EXPECT_FALSE(v.ops.empty()) << "seed " << seed;
}

void run_family(const RandomHistoryOptions& base, std::uint64_t first_seed, int count, Tally& tally) {
    for (int i = 0; i < count; ++i) {
        const std::uint64_t seed = first_seed + static_cast<std::uint64_t>(i);
        std::mt19937_64 rng(seed);
        RandomHistoryOptions o = base;
        o.processes = 2 + static_cast<int>(rng() % 3);
        o.lock_ops = 3 + static_cast<int>(rng() % static_cast<std::uint64_t>(base.lock_ops - 2));
        History h = lockcheck::testing::random_lock_history(rng, o);
        compare(h, seed, tally);
        if (::testing::Test::HasFatalFailure()) return;
    }
}

}  // namespace

TEST(LinearizabilityDifferential, SimulatedHistoriesAreValidAndAgree) {
    Tally t;
    RandomHistoryOptions o;
    o.lock_ops = 14;
    run_family(o, 1000, 2000, t);
    EXPECT_EQ(t.invalid, 0);
    EXPECT_GT(t.fast, 1000);
}

TEST(LinearizabilityDifferential, MutatedHistoriesAgree) {
    Tally t;
    RandomHistoryOptions o;
    o.lock_ops = 14;
    o.mutations = 1;
    run_family(o, 50'000, 2000, t);
    o.mutations = 2;
    o.keys = 2;
    run_family(o, 60'000, 1500, t);
    EXPECT_GT(t.invalid, 600) << "mutations should usually break linearizability";
    EXPECT_GT(t.valid, 100);
}

TEST(LinearizabilityDifferential, ManyInfoOpsInsideTheFragmentAgree) {
    Tally t;
    RandomHistoryOptions o;
    o.lock_ops = 14;
    o.info = 0.35;
    run_family(o, 70'000, 1500, t);
    o.mutations = 1;
    run_family(o, 75'000, 1500, t);
    EXPECT_GT(t.invalid, 200);
    EXPECT_GT(t.fast, 2500);
}

TEST(LinearizabilityDifferential, OwnersReusedAndManyInfoOpsAgree) {
    Tally t;
    RandomHistoryOptions o;
    o.lock_ops = 14;
    o.reuse_owner = 0.5;
    o.info = 0.3;
    run_family(o, 90'000, 1000, t);
    o.mutations = 1;
    run_family(o, 95'000, 1000, t);
    EXPECT_GT(t.searched, 300) << "owner reuse should leave the fast fragment";
    EXPECT_GT(t.invalid, 100);
}

namespace {

/// `h` and one more record 1 ns after its end, unrelated to any lock (a
/// nemesis fault invoked just before the run stopped).
History one_more_record(History h) {
    Op op;
    op.index = h.empty() ? 0 : h.back().index + 1;
    op.time = h.empty() ? 0 : h.back().time + 1;
    op.process = kNemesisProcess;
    op.type = OpType::Invoke;
    op.f = "start-fault";
    op.value = {{"fault", "pause"}, {"id", 2}};
    h.push_back(std::move(op));
    return h;
}

}  // namespace

// A run cut off by max_ops, a crash or kill -9 ends mid-hold. Every overlap
// mutual-exclusion reports must be a double grant the strict reference
// confirms, and one more record after the end must change no overlap: an
// overlap still open when the history ends is an overlap already (it used to
// be missed when the second grant was the last record).
TEST(MutualExclusionDifferential, HistoriesEndingMidHoldAgree) {
    RandomHistoryOptions base;
    base.lock_ops = 14;
    base.end_after_acquire = 0.3;
    base.mutations = 1;
    int overlapping = 0, open_at_end = 0;
    for (std::uint64_t seed = 120'000; seed < 124'000; ++seed) {
        std::mt19937_64 rng(seed);
        RandomHistoryOptions o = base;
        o.processes = 2 + static_cast<int>(rng() % 3);
        o.lock_ops = 3 + static_cast<int>(rng() % static_cast<std::uint64_t>(base.lock_ops - 2));
        const History h = lockcheck::testing::random_lock_history(rng, o);
        const auto at_end = check_mutual_exclusion(h, pair_ops(h));
        const History longer = one_more_record(h);
        const auto later = check_mutual_exclusion(longer, pair_ops(longer));
        ASSERT_EQ(later.stats["overlaps"], at_end.stats["overlaps"]) << "seed " << seed;
        ASSERT_EQ(later.stats["within_lease"], at_end.stats["within_lease"]) << "seed " << seed;
        if (at_end.valid != Validity::Invalid) continue;
        ++overlapping;
        ASSERT_EQ(brute_force_lock_check(h), Validity::Invalid) << "seed " << seed << ": a false overlap";
        open_at_end += std::any_of(at_end.violations.begin(), at_end.violations.end(),
                                   [](const Violation& v) { return v.details.contains("open_at_end"); });
    }
    std::cout << "[ tally    ] " << overlapping << " histories with overlaps, " << open_at_end
              << " with an overlap open at the end\n";
    EXPECT_GT(overlapping, 100);
    EXPECT_GT(open_at_end, 20);
}
