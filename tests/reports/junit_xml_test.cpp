#include <gtest/gtest.h>

#include "checkers/run_checkers.hpp"
#include "reports/junit_xml.hpp"
#include "tests/support/history_builder.hpp"
#include "tests/support/report_fixtures.hpp"

using namespace lockcheck;

namespace {

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST(JUnit, OneTestcasePerCheckerAndAFailureCarryingTheViolation) {
    const History h = lockcheck::testing::paused_holder_history();
    const auto report = run_checkers(h);
    const auto xml = junit_xml({junit_for_report("paused", report, 12.5)});
    EXPECT_EQ(count(xml, "<testcase "), report.checkers.size());
    EXPECT_NE(xml.find("<testcase name=\"mutual-exclusion\" classname=\"lockcheck.paused\""), std::string::npos);
    EXPECT_NE(xml.find("<failure message=\"invalid: 1 overlap (0 within lease, 1 after the lease expired)"),
              std::string::npos)
        << xml;
    EXPECT_NE(xml.find("overlap-lease-expired: worker 1 acquired"), std::string::npos);
    EXPECT_NE(xml.find("time=\"12.500\""), std::string::npos);
    std::size_t counting_failures = 0;
    for (const auto& c : report.checkers) counting_failures += c.counts_toward_verdict && c.valid != Validity::Valid;
    EXPECT_EQ(count(xml, "<failure "), counting_failures);
    EXPECT_NE(xml.find("failures=\"" + std::to_string(counting_failures) + "\""), std::string::npos);
}

TEST(JUnit, AValidRunHasNoFailure) {
    const History h = lockcheck::testing::long_valid_history(4);
    const auto xml = junit_xml({junit_for_report("ok", run_checkers(h), 1)});
    EXPECT_EQ(count(xml, "<failure"), 0u);
    EXPECT_NE(xml.find("failures=\"0\""), std::string::npos);
}

TEST(JUnit, EscapesMarkupInNamesAndMessages) {
    JUnitSuite suite{"s<&>", 1, {{"case \"1\"", "c", 0.5, std::string("a < b & c"), "invalid", "line\x01two"}}};
    const auto xml = junit_xml({suite});
    EXPECT_NE(xml.find("name=\"s&lt;&amp;&gt;\""), std::string::npos);
    EXPECT_NE(xml.find("name=\"case &quot;1&quot;\""), std::string::npos);
    EXPECT_NE(xml.find("message=\"a &lt; b &amp; c\""), std::string::npos);
    EXPECT_NE(xml.find(">linetwo</failure>"), std::string::npos);  // control character dropped
}

TEST(JUnit, AMetExpectationOfAnInvalidRunIsOnePassingTestWithTheViolationsAsEvidence) {
    // Regression: an expected-invalid scenario that met its expectation showed 2 failing testcases.
    const History h = lockcheck::testing::showcase_history();
    const auto report = run_checkers(h);
    const nlohmann::json spec = {{"name", "showcase"},
                                 {"expect", {{"valid", false}, {"has", {"overlap-lease-expired", "lost-update"}}}}};
    const nlohmann::json results = {{"run", {{"seconds", 30.07}}},
                                    {"expectation", {{"matched", true}, {"mismatches", nlohmann::json::array()}}}};
    const auto suite = junit_for_run("showcase", report, results, spec);
    const auto xml = junit_xml({suite});
    EXPECT_EQ(count(xml, "<failure"), 0u) << xml;
    EXPECT_NE(xml.find("failures=\"0\""), std::string::npos);
    EXPECT_EQ(count(xml, "<testcase "), report.checkers.size() + 1);
    ASSERT_FALSE(suite.cases.empty());
    EXPECT_EQ(suite.cases[0].name, "expectation");
    EXPECT_DOUBLE_EQ(suite.cases[0].seconds, 30.07) << "the expectation is judged on the whole run";
    EXPECT_NE(xml.find("<testcase name=\"expectation\" classname=\"lockcheck.showcase\" time=\"30.070\">"),
              std::string::npos);
    EXPECT_NE(xml.find("expected invalid, with overlap-lease-expired and lost-update, got invalid: met"),
              std::string::npos)
        << xml;
    EXPECT_NE(xml.find("evidence:\nmutual-exclusion:\noverlap-lease-expired: worker 1 acquired"), std::string::npos)
        << xml;
}

TEST(JUnit, AnUnmetExpectationIsOneFailureSayingWhy) {
    const History h = lockcheck::testing::long_valid_history(4);
    const auto report = run_checkers(h);
    const nlohmann::json spec = {{"expect", {{"valid", false}, {"has", {"lost-update"}}}}};
    const nlohmann::json results = {
        {"run", {{"seconds", 5.5}}},
        {"expectation", {{"matched", false}, {"mismatches", {"expected invalid, got valid"}}}}};
    const auto xml = junit_xml({junit_for_run("s", report, results, spec)});
    EXPECT_EQ(count(xml, "<failure "), 1u) << xml;
    EXPECT_NE(
        xml.find("<failure message=\"expected invalid, with lost-update, got valid: expected invalid, got valid\" "
                 "type=\"expectation\""),
        std::string::npos)
        << xml;
}

TEST(JUnit, WithoutAnExpectationTheCheckersJudgeAndEveryTestcaseHasItsRealTime) {
    const History h = lockcheck::testing::showcase_history();
    const auto report = run_checkers(h);
    double checked = 0;
    for (const auto& c : report.checkers) {
        EXPECT_GT(c.seconds, 0.0) << c.name << " was not timed";
        checked += c.seconds;
    }
    const auto suite = junit_for_run("plain", report, {{"run", {{"seconds", 12.0}}}}, nullptr);
    EXPECT_DOUBLE_EQ(suite.seconds, 12.0);
    ASSERT_EQ(suite.cases.size(), report.checkers.size());
    double cases = 0;
    for (const auto& c : suite.cases) cases += c.seconds;
    EXPECT_DOUBLE_EQ(cases, checked);
    EXPECT_GE(count(junit_xml({suite}), "<failure "), 2u) << "an invalid run with no expectation fails";
}

TEST(JUnit, ARunThatTestedNothingFailsAVerdictTestcaseWithItsReason) {
    // Regression (issue 28): every checker passes on a run without a grant; the verdict, unknown, must show.
    lockcheck::testing::HistoryBuilder b;
    b.acquire_invoke(0, 0);
    b.acquire_done(10, 0, OpType::Info);
    const auto report = run_checkers(b.history());
    ASSERT_EQ(report.valid, Validity::Unknown);
    const auto xml = junit_xml({junit_for_report("none", report, 1)});
    EXPECT_NE(xml.find("<testcase name=\"verdict\" classname=\"lockcheck.none\""), std::string::npos) << xml;
    EXPECT_NE(xml.find("<failure message=\"unknown: " + report.unknown_reason + "\" type=\"unknown\">"),
              std::string::npos)
        << xml;
    EXPECT_EQ(count(xml, "<failure "), 1u);
    // With an expectation the reason is evidence; the expectation's testcase is the failure.
    const nlohmann::json results = {
        {"expectation", {{"matched", false}, {"mismatches", {"expected valid, got unknown"}}}}};
    const auto with_expectation = junit_xml({junit_for_run("none", report, results, {{"expect", {{"valid", true}}}})});
    EXPECT_EQ(count(with_expectation, "<failure "), 1u);
    EXPECT_NE(with_expectation.find("<system-out>unknown: " + report.unknown_reason), std::string::npos)
        << with_expectation;
}
