#include "core/string_view_interner.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

using namespace lockcheck;

TEST(StringViewInterner, GivesDenseIdsInOrderOfFirstAppearance) {
    StringViewInterner interner;
    EXPECT_EQ(interner.intern("c1-1"), 0);
    EXPECT_EQ(interner.intern("c2-1"), 1);
    EXPECT_EQ(interner.intern("c1-1"), 0);
    EXPECT_EQ(interner.intern(""), 2);
    EXPECT_EQ(interner.intern(""), 2);
    EXPECT_EQ(interner.names(), (std::vector<std::string_view>{"c1-1", "c2-1", ""}));
}

TEST(StringViewInterner, KeepsEveryIdAcrossGrowth) {
    // Far past the initial table, with names long enough to live on the heap
    // and names that differ only at the end.
    std::vector<std::string> names;
    constexpr int kNames = 100'000;
    for (int i = 0; i < kNames; ++i) names.push_back("owner-with-a-long-common-prefix-" + std::to_string(i));
    StringViewInterner interner;
    for (int i = 0; i < kNames; ++i) ASSERT_EQ(interner.intern(names[static_cast<std::size_t>(i)]), i);
    ASSERT_EQ(interner.size(), static_cast<std::size_t>(kNames));
    // Equal text in other memory finds the same id.
    for (int i = kNames - 1; i >= 0; --i) {
        const std::string copy = names[static_cast<std::size_t>(i)];
        ASSERT_EQ(interner.intern(copy), i) << copy;
    }
    EXPECT_EQ(interner.size(), static_cast<std::size_t>(kNames));
    EXPECT_EQ(interner.names()[4321], names[4321]);
}

TEST(StringViewInterner, KeepsViewsOfTheFirstTextNotCopies) {
    const std::string first = "an owner longer than any small-string buffer";
    const std::string same_text = first;
    StringViewInterner interner;
    interner.intern(first);
    interner.intern(same_text);
    ASSERT_EQ(interner.size(), 1u);
    EXPECT_EQ(interner.names()[0].data(), first.data());
}

TEST(StringViewInterner, ReservedNamesAreAllocatedOnce) {
    std::vector<std::string> names;
    for (int i = 0; i < 1000; ++i) names.push_back("w" + std::to_string(i));
    StringViewInterner interner;
    interner.reserve(names.size());
    const std::string_view* storage = nullptr;
    for (const std::string& name : names) {
        interner.intern(name);
        if (!storage) storage = interner.names().data();
        ASSERT_EQ(interner.names().data(), storage) << "the list of views moved at " << name;
    }
}

TEST(StringViewInterner, TakeNamesHandsThemOverAndStartsAfresh) {
    StringViewInterner interner;
    interner.intern("a");
    interner.intern("b");
    EXPECT_EQ(interner.take_names(), (std::vector<std::string_view>{"a", "b"}));
    EXPECT_EQ(interner.size(), 0u);
    EXPECT_EQ(interner.intern("b"), 0);
}
