// The verdict story (reports/verdict_story.hpp), the lines at the top of
// report.html and the terminal summary: which lock, who overlapped for how
// long under which fault, a valid run's one line, many faults aggregated, and
// the lease figure counted from the invoke and from the grant.
#include "reports/verdict_story.hpp"

#include <gtest/gtest.h>

#include "checkers/run_checkers.hpp"
#include "reports/timeline_model.hpp"
#include "tests/support/history_builder.hpp"
#include "tests/support/report_fixtures.hpp"

using namespace lockcheck;

TEST(VerdictStory, SaysWhichLockWhoOverlappedForHowLongUnderWhichFault) {
    const History h = lockcheck::testing::paused_holder_history();
    const auto report = run_checkers(h);
    const ReportModel m = build_report_model(h, report);
    const auto story = tell_verdict(report, m,
                                    {{"name", "paused"},
                                     {"recipe", "redis-set-nx-px"},
                                     {"topology", "redis-single"},
                                     {"workers", 2},
                                     {"ttl_ms", 1000},
                                     {"fencing", false}});
    EXPECT_EQ(story.verdict, "invalid");
    ASSERT_GE(story.lines.size(), 3u);
    const auto& lead = story.lines[1];
    EXPECT_NE(lead.find("Lock 'lock'"), std::string::npos) << lead;
    EXPECT_NE(lead.find("worker 1 acquired it at op"), std::string::npos) << lead;
    EXPECT_NE(lead.find("overlapped for 199.0 ms"), std::string::npos) << lead;
    EXPECT_NE(lead.find("pause-holder #1 on worker 0"), std::string::npos) << lead;
    EXPECT_GE(story.worst_violation, 0);
}

TEST(VerdictStory, AValidRunSaysNoOverlap) {
    const History h = lockcheck::testing::long_valid_history(5);
    const auto report = run_checkers(h);
    const auto story = tell_verdict(report, build_report_model(h, report), nullptr);
    EXPECT_EQ(story.verdict, "valid");
    EXPECT_NE(story.lines[0].find("No two clients held the same lock at once (5 lock sessions)"), std::string::npos);
    EXPECT_EQ(story.worst_violation, -1);
}

TEST(VerdictStory, AggregatesManyFaultsActiveAtTheOverlap) {
    const History h = lockcheck::testing::many_faults_history(47);
    const auto report = run_checkers(h);
    const auto story = tell_verdict(report, build_report_model(h, report), nullptr);
    ASSERT_GE(story.lines.size(), 2u);
    const auto& lead = story.lines[0];
    EXPECT_NE(lead.find("Fault active at the time: 40 × kill-restart (#8–#47) on n1, n2, n3, n4, n5."),
              std::string::npos)
        << lead;
    EXPECT_EQ(lead.find("kill-restart #"), std::string::npos) << "not one by one: " << lead;
}

TEST(VerdictStory, SaysAnOverlapAfterAQueueWaitIsUndecidedWithItsBounds) {
    lockcheck::testing::HistoryBuilder b;
    b.acquire_invoke(0, 0);  // queued for 1500 ms (a ZooKeeper recipe's wait for its predecessor)
    b.acquire_done(1500, 0, OpType::Ok, 1);
    b.acquire_invoke(1600, 1);
    b.acquire_done(2000, 1, OpType::Ok, 2);  // the earlier lease: certain until 999 ms, over by 2501 ms at the latest
    b.release_invoke(2100, 1);
    b.release_done(2101, 1, OpType::Ok);
    b.release_invoke(2200, 0);
    b.release_done(2201, 0, OpType::Ok);
    const auto report = run_checkers(b.history());
    const auto story = tell_verdict(report, build_report_model(b.history(), report), nullptr);
    const auto& lead = story.lines[0];
    EXPECT_NE(lead.find("the record cannot say whose fault this is: its lease ended between 1001.0 ms before and "
                        "501.0 ms after this grant arrived (it began somewhere in the 1500.0 ms between its "
                        "acquire's invoke and its grant)"),
              std::string::npos)
        << lead;
}

TEST(VerdictStory, BlamesALateGrantOnTheClientThatUsedIt) {
    lockcheck::testing::HistoryBuilder b;
    b.acquire_invoke(0, 0);
    b.acquire_done(5, 0, OpType::Ok, 1);
    b.acquire_invoke(100, 1);
    b.acquire_done(200, 1, OpType::Ok, 2);
    b.history().back().valid_ms = -500;
    b.release_invoke(600, 0);
    b.release_done(601, 0, OpType::Ok);
    b.release_invoke(700, 1);
    b.release_done(701, 1, OpType::Ok);
    const auto report = run_checkers(b.history());
    const auto story = tell_verdict(report, build_report_model(b.history(), report), nullptr);
    EXPECT_NE(story.lines[0].find("worker 1 used a grant that arrived after its own lease had ended (it reported "
                                  "valid_ms -500): your client should check"),
              std::string::npos)
        << story.lines[0];
}
