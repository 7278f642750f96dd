// The op record's owner (core/optional_text.hpp): inline up to 15 bytes, on
// the heap beyond, and the same answers as std::optional<std::string> either way.
#include "core/optional_text.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

using namespace lockcheck;

TEST(OptionalText, KeepsShortAndLongTextsWhole) {
    const std::vector<std::string> texts = {"", "w3-1", std::string(15, 'a'), std::string(16, 'b'),
                                            "0f8fad5b-d9cb-469f-a165-70867728950e", std::string(100000, 'c'),
                                            std::string("nul\0inside", 10)};
    for (const auto& text : texts) {
        const OptionalText held(text);
        ASSERT_TRUE(held.has_value()) << text.size();
        EXPECT_EQ(*held, text);
        EXPECT_EQ(held.value(), text);
        EXPECT_EQ(held, text);
        EXPECT_EQ(std::optional<std::string>(held), text);
    }
}

TEST(OptionalText, AbsentIsNotTheEmptyText) {
    const OptionalText absent;
    const OptionalText empty("");
    EXPECT_FALSE(absent.has_value());
    EXPECT_TRUE(empty.has_value());
    EXPECT_NE(absent, empty);
    EXPECT_EQ(absent, std::nullopt);
    EXPECT_NE(absent, "");
    EXPECT_EQ(absent.value_or("?"), "?");
    EXPECT_THROW((void)absent.value(), std::bad_optional_access);
    EXPECT_EQ(std::optional<std::string>(absent), std::nullopt);
    EXPECT_EQ(nlohmann::json(absent), nlohmann::json());
    EXPECT_EQ(nlohmann::json(empty), nlohmann::json(""));
}

TEST(OptionalText, CopiesAreIndependentAndAMoveLeavesNothingBehind) {
    const std::string long_text(40, 'x');
    OptionalText original(long_text);
    OptionalText copy = original;
    original = "short";
    EXPECT_EQ(copy, long_text);
    EXPECT_EQ(original, "short");
    OptionalText moved = std::move(copy);
    EXPECT_EQ(moved, long_text);
    EXPECT_FALSE(copy.has_value());  // NOLINT(bugprone-use-after-move): the moved-from state is part of the contract
    moved = moved;                   // self-assignment keeps the text
    EXPECT_EQ(moved, long_text);
    moved = std::nullopt;
    EXPECT_EQ(moved, std::nullopt);
    std::vector<OptionalText> many;
    for (int i = 0; i < 1000; ++i) many.emplace_back(std::to_string(i) + std::string(static_cast<std::size_t>(i % 40), '-'));
    for (int i = 0; i < 1000; ++i) EXPECT_EQ(many[static_cast<std::size_t>(i)], std::to_string(i) + std::string(static_cast<std::size_t>(i % 40), '-'));
}

TEST(OptionalText, IsSixteenBytes) {
    EXPECT_EQ(sizeof(OptionalText), 16u);
}
