// Differential test: the fast path and the search against the brute-force
// reference on thousands of small random histories (seeded, reproducible).
#include <gtest/gtest.h>

#include <iostream>
#include <random>

#include "checkers/brute_force_lock_checker.hpp"
#include "checkers/linearizability.hpp"
#include "tests/random_lock_history.hpp"

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
        std::cout << "[ tally    ] " << valid << " linearizable, " << invalid << " not; keys decided by the fast path: "
                  << fast << ", by the search: " << searched << "\n";
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
