#include "core/string_interner.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace lockcheck;

TEST(StringInterner, GivesDenseIdsInOrderOfFirstAppearance) {
    StringInterner interner;
    EXPECT_EQ(interner.intern("c1-1"), 0);
    EXPECT_EQ(interner.intern("c2-1"), 1);
    EXPECT_EQ(interner.intern("c1-1"), 0);
    EXPECT_EQ(interner.intern(""), 2);
    EXPECT_EQ(interner.intern(""), 2);
    EXPECT_EQ(interner.names(), (std::vector<std::string>{"c1-1", "c2-1", ""}));
}

TEST(StringInterner, KeepsEveryIdAcrossGrowth) {
    // Far past the initial table, with names long enough to live on the heap
    // and names that differ only at the end.
    StringInterner interner;
    constexpr int kNames = 100'000;
    const auto name = [](int i) { return "owner-with-a-long-common-prefix-" + std::to_string(i); };
    for (int i = 0; i < kNames; ++i) ASSERT_EQ(interner.intern(name(i)), i);
    ASSERT_EQ(interner.size(), static_cast<std::size_t>(kNames));
    for (int i = kNames - 1; i >= 0; --i) ASSERT_EQ(interner.intern(name(i)), i) << name(i);
    EXPECT_EQ(interner.size(), static_cast<std::size_t>(kNames));
    EXPECT_EQ(interner.names()[4321], name(4321));
}

TEST(StringInterner, TakeNamesHandsThemOverAndStartsAfresh) {
    StringInterner interner;
    interner.intern("a");
    interner.intern("b");
    EXPECT_EQ(interner.take_names(), (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(interner.size(), 0u);
    EXPECT_EQ(interner.intern("b"), 0);
}
