// The scenarios shipped in scenarios/: all valid, quick ones short; labels and the list.
#include <gtest/gtest.h>

#include "harness/scenario_catalog.hpp"

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
    for (std::size_t i = 1; i < entries.size(); ++i) EXPECT_LT(entries[i - 1].path.filename(), entries[i].path.filename());
}

TEST(ScenarioCatalog, LabelsMustBeAListOfStrings) {
    EXPECT_EQ(spec_from_json({{"labels", {"quick", "nightly"}}}, "t").labels, (std::vector<std::string>{"quick", "nightly"}));
    EXPECT_THROW(spec_from_json({{"labels", "quick"}}, "t"), SpecError);
    EXPECT_THROW(spec_from_json({{"labels", {1}}}, "t"), SpecError);
    EXPECT_EQ(spec_to_json(spec_from_json({{"labels", {"quick"}}}, "t"))["labels"], nlohmann::json({"quick"}));
}

TEST(ScenarioCatalog, OneLineIsTheFirstSentenceCutOnACharacterBoundary) {
    EXPECT_EQ(one_line("First part. Second part."), "First part.");
    const std::string long_text(100, 'x');
    EXPECT_EQ(one_line(long_text, 20), std::string(17, 'x') + "...");
    const auto cut = one_line("aaaaaaaaaaaaaaa×××××××××", 20);  // × is two bytes in UTF-8
    EXPECT_EQ(cut.substr(cut.size() - 3), "...");
    EXPECT_NE(static_cast<unsigned char>(cut[cut.size() - 4]), 0xC3);  // no lone lead byte before "..."
}

TEST(ScenarioCatalog, ListTextNamesEveryScenarioWithItsLabels) {
    const auto text = scenario_list_text(std::filesystem::path(LOCKCHECK_SOURCE_DIR) / "scenarios");
    EXPECT_NE(text.find("redis-quick-no-faults"), std::string::npos);
    EXPECT_NE(text.find("[quick]"), std::string::npos);
    EXPECT_NE(scenario_list_text("/nonexistent-dir").find("none:"), std::string::npos);
}
