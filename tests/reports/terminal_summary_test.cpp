// The terminal summary asks each checker's descriptor for its line and the
// verdict's headline, and the witness line says what the servers' record decided.
#include <gtest/gtest.h>

#include "checkers/run_checkers.hpp"
#include "reports/terminal_summary.hpp"
#include "reports/timeline_model.hpp"
#include "reports/verdict_story.hpp"
#include "tests/support/history_builder.hpp"

using namespace lockcheck;
using lockcheck::testing::HistoryBuilder;

TEST(TerminalSummary, ALockRunReadsAsLocksWithOneLinePerChecker) {
    HistoryBuilder b;
    b.session(1, 0, 1, 10, 11);
    b.session(2, 20, 21, 30, 31);
    const auto report = run_checkers(b.history());
    EXPECT_EQ(verdict_sentence(report), "VALID: no two clients held one lock at once, and no update was lost");
    EXPECT_EQ(checker_summary(report.checkers.front()),
              "0 overlaps (0 within lease, 0 after the lease expired) in 2 lock sessions");
    const std::string summary = terminal_summary(report);
    for (const auto& c : report.checkers) EXPECT_NE(summary.find("  " + c.name + " "), std::string::npos) << c.name;
}

TEST(TerminalSummary, AnOverlapLeadsWithTheMutualExclusionHeadline) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1);
    b.acquire_done(1, 1, OpType::Ok);
    b.acquire_invoke(10, 2);
    b.acquire_done(11, 2, OpType::Ok);
    EXPECT_EQ(verdict_sentence(run_checkers(b.history())), "INVALID: two clients held the same lock at the same time");
}

TEST(TerminalSummary, AStockRunReadsAsSales) {
    HistoryBuilder b;
    b.add(0, 1, OpType::Invoke, std::string(fn::kStockInit), "item");
    b.add(1, 1, OpType::Ok, std::string(fn::kStockInit), "item");
    b.history().back().value = {{"stock", 5}};
    b.add(2, 1, OpType::Invoke, std::string(fn::kDecrement), "item");
    b.add(3, 1, OpType::Ok, std::string(fn::kDecrement), "item");
    const auto report = run_checkers(b.history());
    EXPECT_EQ(verdict_sentence(report), "VALID: nothing was oversold, and the final stock matches the sales");
    EXPECT_EQ(checker_summary(report.checkers.front()), report.checkers.front().stats["summary"]);
    EXPECT_EQ(checker_summary(report.checkers.back()).rfind("1 decrement, p50", 0), 0u)
        << checker_summary(report.checkers.back());
}

TEST(TerminalSummary, AnIdRunReadsAsIdsAndLeadsWithTheDuplicate) {
    HistoryBuilder b;
    for (int process = 1; process <= 2; ++process) {
        b.add(process * 2, process, OpType::Invoke, std::string(fn::kGenerateId), "seq");
        b.add(process * 2 + 1, process, OpType::Ok, std::string(fn::kGenerateId), "seq");
        b.history().back().value = {{"id", 7}};
    }
    const auto report = run_checkers(b.history());
    EXPECT_EQ(verdict_sentence(report), "INVALID: two requests were given the same id");
    EXPECT_EQ(checker_summary(report.checkers.front()), "2 ids issued (0 indeterminate requests), 1 duplicates");
    EXPECT_EQ(checker_summary(report.checkers.back()).rfind("2 generate-ids, p50", 0), 0u)
        << checker_summary(report.checkers.back());
    EXPECT_NE(terminal_summary(report).find("duplicate-id: 'seq': id 7 was issued twice"), std::string::npos)
        << terminal_summary(report);
}

TEST(TerminalSummary, AResultNoDescriptorKnowsFallsBackToItsStats) {
    CheckerResult r;
    r.name = "unknown-checker";
    r.violations.resize(3);
    EXPECT_EQ(checker_summary(r), "3 violations");
    r.stats["summary"] = "custom line";
    EXPECT_EQ(checker_summary(r), "custom line");
}

// Regression: the terminal showed the first overlap found and report.html's
// headline the longest: both now show gravest_violation's.
TEST(TerminalSummary, ShowsTheOverlapTheReportHeadlineTellsOf) {
    HistoryBuilder b;
    b.session(1, 0, 1, 100, 101);  // holds 1..100 ms
    b.session(2, 10, 11, 20, 21);  // a 9 ms overlap, found first
    b.session(3, 30, 31, 90, 91);  // a 59 ms overlap
    const auto report = run_checkers(b.history());
    const CheckerResult& mutex = report.checkers.front();
    ASSERT_GE(mutex.violations.size(), 2u);
    const Violation* gravest = gravest_violation(mutex);
    ASSERT_NE(gravest, nullptr);
    EXPECT_NE(gravest, &mutex.violations.front()) << "the fixture's longest overlap is not the first found";
    const std::string summary = terminal_summary(report);
    EXPECT_NE(summary.find(gravest->description), std::string::npos) << summary;
    EXPECT_EQ(summary.find(mutex.violations.front().description), std::string::npos) << summary;

    const ReportModel model = build_report_model(b.history(), report);
    const VerdictStory story = tell_verdict(report, model, nullptr);
    ASSERT_GE(story.worst_violation, 0);
    EXPECT_EQ(model.violations[static_cast<std::size_t>(story.worst_violation)].ops, gravest->ops);
}

TEST(TerminalSummary, CountsReadInTheRightNumber) {
    HistoryBuilder b;
    b.session(1, 0, 1, 100, 101);
    b.session(2, 10, 11, 20, 21);
    const auto report = run_checkers(b.history());
    EXPECT_EQ(checker_summary(report.checkers.front()),
              "1 overlap (1 within lease, 0 after the lease expired) in 2 lock sessions");
}

TEST(TerminalSummary, TheWitnessLineSaysWhatTheServersRecordDecidedAndWhenItsExpiriesProveNothing) {
    HistoryBuilder b;
    b.session(1, 0, 1, 10, 11);
    auto report = run_checkers(b.history());
    report.witness = {{"server", "zookeeper"}, {"read", true},   {"events", 64},
                      {"seconds", 0.03},       {"undecided", 1}, {"decided", 0}};
    EXPECT_NE(terminal_summary(report).find(
                  "  witness: zookeeper's own record, 64 events read in 0.03 s, decided 0 of 1 undecided overlaps\n"),
              std::string::npos)
        << terminal_summary(report);
    report.witness["expiries_trusted"] = false;
    EXPECT_NE(terminal_summary(report).find("decided 0 of 1 undecided overlaps (its session expiries prove nothing: a "
                                            "fault moved the servers' clocks)\n"),
              std::string::npos)
        << terminal_summary(report);
    report.witness = {{"server", "zookeeper"}, {"read", false}, {"why", "no transaction log"}};
    EXPECT_NE(terminal_summary(report).find("  witness: zookeeper's own record was not read: no transaction log; the "
                                            "classes above stand\n"),
              std::string::npos)
        << terminal_summary(report);
}
