// check_history (run/checked_history.hpp): the one path from a history to
// results.json, the reports and the summary, for `run` and `check` alike.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "run/checked_history.hpp"
#include "reports/results_json.hpp"
#include "tests/support/history_builder.hpp"
#include "tests/support/scratch_dir.hpp"

using namespace lockcheck;
using lockcheck::testing::HistoryBuilder;
using lockcheck::testing::ScratchDir;

namespace {

/// Two sessions one after the other: a valid lock history.
History two_sessions() {
    HistoryBuilder b;
    b.session(0, 0, 1, 10, 11);
    b.session(1, 20, 21, 30, 31);
    return b.history();
}

}  // namespace

TEST(CheckedHistory, WritesResultsAndReportsWithTheRunAndTheExpectation) {
    const ScratchDir scratch("checked-history");
    const auto& dir = scratch.path();
    const nlohmann::json run{{"name", "t"}, {"seconds", 1.5}};
    Expectation expect;
    expect.valid = "invalid";
    const auto checked = check_history(two_sessions(), {dir, run, expect, nlohmann::json{{"name", "t"}}, std::nullopt});

    EXPECT_EQ(checked.report.valid, Validity::Valid);
    ASSERT_TRUE(checked.expectation);
    EXPECT_FALSE(checked.expectation->matched) << "expected invalid, the history is valid";
    EXPECT_EQ(checked.results["run"], run);
    EXPECT_EQ(checked.results["expectation"]["matched"], false);
    EXPECT_EQ(read_json_or_null(dir / "results.json"), checked.results) << "returned what it wrote";
    EXPECT_TRUE(std::filesystem::exists(dir / "report.html"));
    std::ifstream junit(dir / "junit.xml");
    std::stringstream text;
    text << junit.rdbuf();
    EXPECT_NE(text.str().find("testsuite name=\"t\""), std::string::npos) << text.str();
}

TEST(CheckedHistory, ABareHistoryGetsItsVerdictAndSummaryOnly) {
    ::testing::internal::CaptureStdout();
    const auto checked = check_history(two_sessions(), {});
    const std::string summary = ::testing::internal::GetCapturedStdout();
    EXPECT_EQ(checked.report.valid, Validity::Valid);
    EXPECT_FALSE(checked.results.contains("run"));
    EXPECT_FALSE(checked.results.contains("expectation"));
    EXPECT_FALSE(checked.expectation);
    EXPECT_NE(summary.find("VALID"), std::string::npos) << summary;
}

TEST(CheckedHistory, OpsThatDoNotPairThrowBeforeAnythingIsWritten) {
    const ScratchDir scratch("checked-history");
    const auto& dir = scratch.path();
    HistoryBuilder b;
    b.acquire_done(1, 0, OpType::Ok, 1);  // a completion with no invoke
    EXPECT_THROW(check_history(b.history(), {dir, nullptr, std::nullopt, nullptr, std::nullopt}), HistoryError);
    EXPECT_FALSE(std::filesystem::exists(dir / "results.json"));
    EXPECT_FALSE(std::filesystem::exists(dir / "report.html"));
}

// Regression: `--nemesis none` on a scenario that expects overlaps printed
// "NOT met"; the run now says the expectation does not apply, everywhere.
TEST(CheckedHistory, AnExpectationThatDoesNotApplyIsRecordedSoAndJudgesNothing) {
    const ScratchDir scratch("checked-history-not-applicable");
    const auto& dir = scratch.path();
    const std::string reason = "the scenario's expectation was stated for nemesis pause-holder";
    ::testing::internal::CaptureStdout();
    const auto checked = check_history(two_sessions(), {dir, nlohmann::json{{"name", "t"}, {"client", "my \"client\""}},
                                                        std::nullopt, nlohmann::json{{"name", "t"}}, reason});
    ::testing::internal::GetCapturedStdout();
    EXPECT_FALSE(checked.expectation) << "nothing was judged";
    EXPECT_EQ(checked.results["expectation"], (nlohmann::json{{"applies", false}, {"reason", reason}}));
    std::stringstream junit, html;
    junit << std::ifstream(dir / "junit.xml").rdbuf();
    html << std::ifstream(dir / "report.html").rdbuf();
    EXPECT_EQ(junit.str().find("name=\"expectation\""), std::string::npos) << junit.str();
    EXPECT_EQ(junit.str().find("<failure"), std::string::npos) << "a valid run without an expectation passes";
    EXPECT_NE(junit.str().find("<property name=\"client\" value=\"my &quot;client&quot;\"/>"), std::string::npos)
        << junit.str();
    EXPECT_NE(html.str().find("Scenario expectation: <b>does not apply</b>"), std::string::npos);
    EXPECT_EQ(html.str().find("NOT met"), std::string::npos);
}

TEST(CheckedHistory, TheSpecsNemesisIsWhatTheRunClaimsAndEveryOutputSaysItNeverStruck) {
    // Regression (issue 28): a run whose nemesis never struck said VALID and "expectation: met".
    const ScratchDir scratch("checked-history-nemesis");
    const auto& dir = scratch.path();
    Expectation expect;
    expect.valid = "valid";
    const nlohmann::json spec{{"name", "t"}, {"nemesis", {"kill-restart"}}};
    ::testing::internal::CaptureStdout();
    const auto checked = check_history(two_sessions(), {dir, {{"name", "t"}}, expect, spec, std::nullopt});
    const std::string summary = ::testing::internal::GetCapturedStdout();
    const std::string reason = "the nemesis never struck: the run says nothing about kill-restart";
    EXPECT_EQ(checked.report.valid, Validity::Unknown);
    EXPECT_EQ(checked.results["valid"], "unknown");
    EXPECT_EQ(checked.results["unknown_reason"], reason);
    EXPECT_EQ(checked.results["exercised"]["faults_struck"], 0);
    ASSERT_TRUE(checked.expectation);
    EXPECT_FALSE(checked.expectation->matched);
    EXPECT_EQ(checked.expectation->mismatches.at(0), "expected valid, got unknown (" + reason + ")");
    EXPECT_EQ(summary.rfind("UNKNOWN: " + reason + "\n", 0), 0u) << summary;
    std::stringstream html, junit;
    html << std::ifstream(dir / "report.html").rdbuf();
    junit << std::ifstream(dir / "junit.xml").rdbuf();
    EXPECT_NE(html.str().find("UNKNOWN: " + reason), std::string::npos);
    EXPECT_NE(junit.str().find("unknown: " + reason), std::string::npos) << junit.str();
    // The same history without its spec claims no nemesis: valid.
    ::testing::internal::CaptureStdout();
    EXPECT_EQ(check_history(two_sessions(), {}).report.valid, Validity::Valid);
    ::testing::internal::GetCapturedStdout();
}
