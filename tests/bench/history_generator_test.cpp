// The benchmark's history generator: its valid histories pass every checker,
// its planted double grant is found by both the overlap and the linearizability
// checkers, the fast path agrees with the search on what it generates, and
// the open locks overlap as many times as they should.
#include <gtest/gtest.h>

#include "bench/history_generator.hpp"
#include "checkers/linearizability.hpp"
#include "checkers/mutual_exclusion.hpp"
#include "checkers/run_checkers.hpp"

using namespace lockcheck;
using lockcheck::bench::GeneratorOptions;

namespace {
GeneratorOptions options(int clients, int keys, double info, bool planted, std::uint64_t seed) {
    GeneratorOptions o;
    o.ops = 20'000;
    o.clients = clients;
    o.keys = keys;
    o.info = info;
    o.plant_violation = planted;
    o.seed = seed;
    return o;
}
}  // namespace

TEST(HistoryGenerator, GeneratedHistoriesAreWellFormedAndValid) {
    for (int clients : {10, 100})
        for (double info : {0.0, 0.05}) {
            const auto h = bench::generate_history(options(clients, 3, info, false, 7));
            ASSERT_GE(h.size(), 20'000u);
            for (std::size_t i = 1; i < h.size(); ++i) ASSERT_LE(h[i - 1].time, h[i].time);
            const auto report = run_checkers(h);
            EXPECT_EQ(report.valid, Validity::Valid) << clients << " clients, info " << info;
        }
}

TEST(HistoryGenerator, PlantedDoubleGrantIsFoundByBothCheckers) {
    for (double info : {0.0, 0.05}) {
        const auto h = bench::generate_history(options(10, 1, info, true, 3));
        const auto partner = pair_ops(h);
        const auto overlap = check_mutual_exclusion(h, partner);
        EXPECT_EQ(overlap.valid, Validity::Invalid);
        EXPECT_EQ(overlap.violations.size(), 1u);
        const auto lin = check_linearizability(h, partner);
        EXPECT_EQ(lin.valid, Validity::Invalid);
        ASSERT_FALSE(lin.violations.empty());
        EXPECT_EQ(lin.violations[0].kind, "double-grant");
    }
}

TEST(HistoryGenerator, FastPathAgreesWithTheSearch) {
    LinearizabilityOptions forced;
    forced.force_search = true;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        auto o = options(4, 1, 0.1, seed % 2 == 0, seed);
        o.ops = 400;
        const auto h = bench::generate_history(o);
        const auto partner = pair_ops(h);
        EXPECT_EQ(check_linearizability(h, partner).valid, check_linearizability(h, partner, forced).valid)
            << "seed " << seed;
    }
}

TEST(HistoryGenerator, OpenLocksOverlapEveryLaterSession) {
    // 300 locks never released, then 200 sessions one after another: every
    // pair overlaps, and the mutual-exclusion checker counts them (mostly
    // without visiting them: checkers/overlap_sweep.hpp) as the pairwise sweep does.
    const History history = bench::generate_open_locks(300, 200);
    EXPECT_EQ(history.size(), 300u * 2 + 200u * 4);
    const auto result = check_mutual_exclusion(history, pair_ops(history));
    EXPECT_EQ(result.valid, Validity::Invalid);
    const std::int64_t pairs = 300 * 299 / 2 + 200 * 300;
    EXPECT_EQ(result.stats["overlaps"], pairs);
    EXPECT_EQ(result.stats["lease_expired"].get<std::int64_t>() + result.stats["within_lease"].get<std::int64_t>() +
                  result.stats["lease_uncertain"].get<std::int64_t>() + result.stats["late_grant"].get<std::int64_t>(),
              pairs);
    EXPECT_GT(result.stats["within_lease"].get<std::int64_t>(), 0) << "the last holders' leases still ran";
    EXPECT_LE(result.violations.size(), 201u);
}
