#include <gtest/gtest.h>

#include "checkers/run_checkers.hpp"
#include "reports/junit_xml.hpp"
#include "tests/report_fixtures.hpp"

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
    EXPECT_NE(xml.find("<failure message=\"invalid: 1 overlaps (0 within lease, 1 after the lease expired)"), std::string::npos)
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
