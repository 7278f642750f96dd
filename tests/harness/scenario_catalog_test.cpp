// The scenarios shipped in scenarios/: all valid, quick ones short; labels and the list.
#include <gtest/gtest.h>

#include "spec/scenario_catalog.hpp"
#include "reports/text_columns.hpp"

using namespace lockcheck;

TEST(ScenarioCatalog, EveryShippedScenarioIsValidAndQuickOnesAreShort) {
    const auto entries = load_scenarios(std::filesystem::path(LOCKCHECK_SOURCE_DIR) / "scenarios");
    ASSERT_GE(entries.size(), 4u);
    int quick = 0;
    for (const auto& e : entries) {
        ASSERT_TRUE(e.spec) << e.path << ": " << e.error;
        EXPECT_NO_THROW(validate(*e.spec)) << e.path;
        EXPECT_FALSE(e.spec->description.empty()) << e.path;
        if (has_label(*e.spec, "quick")) {
            ++quick;
            EXPECT_LE(e.spec->time_limit_s, 10) << e.path << " is labelled quick";
        }
    }
    EXPECT_GE(quick, 1);
    for (std::size_t i = 1; i < entries.size(); ++i)
        EXPECT_LT(entries[i - 1].path.filename(), entries[i].path.filename());
}

TEST(ScenarioCatalog, LabelsMustBeAListOfStrings) {
    EXPECT_EQ(spec_from_json({{"labels", {"quick", "nightly"}}}, "t").labels,
              (std::vector<std::string>{"quick", "nightly"}));
    EXPECT_THROW(spec_from_json({{"labels", "quick"}}, "t"), SpecError);
    EXPECT_THROW(spec_from_json({{"labels", {1}}}, "t"), SpecError);
    EXPECT_EQ(spec_to_json(spec_from_json({{"labels", {"quick"}}}, "t"))["labels"], nlohmann::json({"quick"}));
}

TEST(ScenarioCatalog, FirstSentenceIsWhole) {
    EXPECT_EQ(first_sentence("First part. Second part."), "First part.");
    const std::string long_text(100, 'x');
    EXPECT_EQ(first_sentence(long_text), long_text);
}

// Regression: `list` cut descriptions to a width with "...".
TEST(TextColumns, AHangingParagraphWrapsAtWordsUnderItsColumn) {
    const std::string text = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen";
    const std::string out = hanging_paragraph("  name", 10, text, 30);
    EXPECT_EQ(out,
              "  name    one two three four\n"
              "          five six seven eight\n"  // exactly 30 characters
              "          nine ten eleven\n"
              "          twelve thirteen\n"
              "          fourteen\n");
    EXPECT_EQ(hanging_paragraph("  a-very-long-name", 10, "text", 30), "  a-very-long-name\n          text\n");
    EXPECT_EQ(hanging_paragraph("  n", 5, "ééé ééé ééé", 12), "  n  ééé ééé\n     ééé\n")
        << "characters, not bytes, fill a line";
    EXPECT_EQ(hanging_paragraph("  n", 5, "a-word-longer-than-the-line", 12), "  n  a-word-longer-than-the-line\n");
}

TEST(ScenarioCatalog, ListTextNamesEveryScenarioWithItsLabels) {
    const auto text = scenario_list_text(std::filesystem::path(LOCKCHECK_SOURCE_DIR) / "scenarios");
    EXPECT_NE(text.find("redis-quick-no-faults"), std::string::npos);
    EXPECT_NE(text.find("[quick]"), std::string::npos);
    EXPECT_NE(scenario_list_text("/nonexistent-dir").find("none:"), std::string::npos);
}
