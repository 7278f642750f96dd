// `lockcheck suite --shard K/N`: which scenarios slice K of N runs, and which
// values are refused (docs/ci.md, "One suite over N runners").
#include "commands/suite/suite_shard.hpp"

#include <gtest/gtest.h>

#include <set>

#include "spec/spec.hpp"

namespace lockcheck {
namespace {

using Positions = std::vector<std::size_t>;

TEST(SuiteShard, ParsesKOfN) {
    const SuiteShard shard = parse_shard("2/3");
    EXPECT_EQ(shard.index, 2);
    EXPECT_EQ(shard.count, 3);
}

TEST(SuiteShard, RefusesWhatIsNotKOfNWithOneToN) {
    for (const char* bad : {"", "3", "/", "1/", "/2", "0/2", "3/2", "1/0", "-1/2", "1/-2", "a/2", "1/2/3", " 1/2",
                            "1/2 ", "1/1001", "99999999999/2"}) {
        try {
            parse_shard(bad);
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const SpecError& e) {
            EXPECT_NE(std::string(e.what()).find("--shard must be K/N"), std::string::npos) << e.what();
            EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << "one line: " << e.what();
        }
    }
}

TEST(SuiteShard, SlicesTakeEveryNthScenarioFromTheKth) {
    EXPECT_EQ(shard_positions(7, {1, 3}), (Positions{0, 3, 6}));
    EXPECT_EQ(shard_positions(7, {2, 3}), (Positions{1, 4}));
    EXPECT_EQ(shard_positions(7, {3, 3}), (Positions{2, 5}));
    EXPECT_EQ(shard_positions(3, {1, 1}), (Positions{0, 1, 2}));
}

TEST(SuiteShard, MoreSlicesThanScenariosLeavesTheLastOnesEmpty) {
    EXPECT_EQ(shard_positions(2, {2, 4}), (Positions{1}));
    EXPECT_TRUE(shard_positions(2, {3, 4}).empty());
    EXPECT_TRUE(shard_positions(0, {1, 1}).empty());
}

TEST(SuiteShard, EveryScenarioIsInExactlyOneSliceAndSlicesDifferByAtMostOne) {
    for (std::size_t total : {0u, 1u, 5u, 54u}) {
        for (int n = 1; n <= 9; ++n) {
            std::multiset<std::size_t> seen;
            std::size_t smallest = total, largest = 0;
            for (int k = 1; k <= n; ++k) {
                const auto slice = shard_positions(total, {k, n});
                seen.insert(slice.begin(), slice.end());
                smallest = std::min(smallest, slice.size());
                largest = std::max(largest, slice.size());
            }
            EXPECT_EQ(seen.size(), total) << total << " in " << n;
            for (std::size_t i = 0; i < total; ++i) EXPECT_EQ(seen.count(i), 1u) << i << " of " << total;
            EXPECT_LE(largest - smallest, 1u) << total << " in " << n;
        }
    }
}

}  // namespace
}  // namespace lockcheck
