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

TEST(VerdictStory, SaysTheLeaseFigureIsABoundAndCountsFromTheGrantAfterAQueueWait) {
    lockcheck::testing::HistoryBuilder b;
    b.acquire_invoke(0, 0);  // queued for 1500 ms (a ZooKeeper recipe's wait for its predecessor)
    b.acquire_done(1500, 0, OpType::Ok, 1);
    b.acquire_invoke(1600, 1);
    b.acquire_done(2000, 1, OpType::Ok,
                   2);  // lease from the invoke: expired 1001 ms before; from the grant: 499 ms left
                        // (a lease is certain until invoke + ttl - 1 ms)
    b.release_invoke(2100, 1);
    b.release_done(2101, 1, OpType::Ok);
    b.release_invoke(2200, 0);
    b.release_done(2201, 0, OpType::Ok);
    const auto report = run_checkers(b.history());
    const auto story = tell_verdict(report, build_report_model(b.history(), report), nullptr);
    const auto& lead = story.lines[0];
    EXPECT_NE(lead.find("its lease had expired up to 1001.0 ms before, counting from its acquire's invoke (the acquire "
                        "waited 1500.0 ms for the grant; counting from the grant, it had 499.0 ms left), but"),
              std::string::npos)
        << lead;
}
