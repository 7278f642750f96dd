#include "core/interner.hpp"

#include <gtest/gtest.h>

#include <cstdint>
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
    EXPECT_EQ(interner.handles(), (std::vector<std::string_view>{"c1-1", "c2-1", ""}));
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
    EXPECT_EQ(interner.handles()[4321], names[4321]);
}

TEST(StringViewInterner, KeepsViewsOfTheFirstTextNotCopies) {
    const std::string first = "an owner longer than any small-string buffer";
    const std::string same_text = first;
    StringViewInterner interner;
    interner.intern(first);
    interner.intern(same_text);
    ASSERT_EQ(interner.size(), 1u);
    EXPECT_EQ(interner.handles()[0].data(), first.data());
}

TEST(StringViewInterner, ReservedHandlesAreAllocatedOnce) {
    std::vector<std::string> names;
    for (int i = 0; i < 1000; ++i) names.push_back("w" + std::to_string(i));
    StringViewInterner interner;
    interner.reserve(names.size());
    const std::string_view* storage = nullptr;
    for (const std::string& name : names) {
        interner.intern(name);
        if (!storage) storage = interner.handles().data();
        ASSERT_EQ(interner.handles().data(), storage) << "the list of views moved at " << name;
    }
}

TEST(StringViewInterner, TakeHandlesHandsThemOverAndStartsAfresh) {
    StringViewInterner interner;
    interner.intern("a");
    interner.intern("b");
    EXPECT_EQ(interner.take_handles(), (std::vector<std::string_view>{"a", "b"}));
    EXPECT_EQ(interner.size(), 0u);
    EXPECT_EQ(interner.intern("b"), 0);
}

namespace {

/// Handles that are positions in a list of texts, as the lock model's owners
/// are positions in a history.
struct TextAt {
    const std::vector<std::string>* texts;
    std::string_view operator()(std::uint32_t position) const { return (*texts)[position]; }
};

}  // namespace

TEST(Interner, PositionHandlesFindEqualTextsAtOtherPositions) {
    // Each text twice, at positions far apart, across many growths of the table.
    constexpr std::uint32_t kTexts = 50'000;
    std::vector<std::string> texts;
    for (std::uint32_t i = 0; i < 2 * kTexts; ++i) texts.push_back("owner-" + std::to_string(i % kTexts));
    Interner<std::uint32_t, TextAt> interner(TextAt{&texts});
    for (std::uint32_t p = 0; p < texts.size(); ++p)
        ASSERT_EQ(interner.intern(p), static_cast<std::int32_t>(p % kTexts)) << texts[p];
    ASSERT_EQ(interner.size(), kTexts);
    // The first position of each text is the one kept.
    EXPECT_EQ(interner.handles()[123], 123u);
    const std::vector<std::uint32_t> handles = interner.take_handles();
    EXPECT_EQ(handles.size(), kTexts);
    EXPECT_EQ(handles.back(), kTexts - 1);
    EXPECT_EQ(interner.size(), 0u);
    EXPECT_EQ(interner.intern(kTexts + 7), 0);  // "owner-7" again, in a fresh table
}
