// The data behind report.html and its verdict sentence, on constructed histories.
#include <gtest/gtest.h>

#include "checkers/run_checkers.hpp"
#include "reports/html_report.hpp"
#include "reports/timeline_model.hpp"
#include "reports/verdict_story.hpp"
#include "tests/report_fixtures.hpp"

using namespace lockcheck;

namespace {

const ViolationMark* find_kind(const ReportModel& m, const std::string& kind) {
    for (const auto& v : m.violations)
        if (v.kind == kind) return &v;
    return nullptr;
}

}  // namespace

TEST(ReportModel, HoldBarsAttemptsAndFaultsOfAPausedHolder) {
    const History h = lockcheck::testing::paused_holder_history();
    const ReportModel m = build_report_model(h, run_checkers(h));
    ASSERT_EQ(m.keys.size(), 1u);
    const auto& key = m.keys[0];
    EXPECT_EQ(key.key, "lock");
    EXPECT_EQ(key.processes, (std::vector<int>{0, 1}));
    ASSERT_EQ(key.holds.size(), 2u);
    EXPECT_EQ(key.holds[0].process, 0);
    EXPECT_EQ(key.holds[0].start_ns, 1'000'000);
    EXPECT_EQ(key.holds[0].end_ns, 2'701'000'000);   // until its (failed) release completed
    EXPECT_FALSE(key.holds[0].released);
    EXPECT_EQ(*key.holds[0].lease_end_ns, 1'000'000'000);  // invoke at 0 + 1000 ms
    EXPECT_EQ(key.holds[1].process, 1);
    EXPECT_TRUE(key.holds[1].released);
    ASSERT_EQ(key.attempts.size(), 4u);
    EXPECT_EQ(key.attempts[1].outcome, "held");
    EXPECT_EQ(key.attempts[3].outcome, "ok");
    ASSERT_EQ(m.faults.size(), 1u);
    EXPECT_EQ(m.faults[0].kind, "pause-holder");
    EXPECT_EQ(m.faults[0].targets, (std::vector<std::string>{"worker 0"}));
    EXPECT_EQ(m.faults[0].start_ns, 100'000'000);
    EXPECT_EQ(m.faults[0].end_ns, 2'601'000'000);
    EXPECT_TRUE(m.notes.empty());
}

TEST(ReportModel, OverlapSpansTheOverlapAndNamesTheActiveFault) {
    const History h = lockcheck::testing::paused_holder_history();
    const ReportModel m = build_report_model(h, run_checkers(h));
    const auto* overlap = find_kind(m, "overlap-lease-expired");
    ASSERT_NE(overlap, nullptr);
    EXPECT_EQ(overlap->key, "lock");
    EXPECT_EQ(overlap->processes, (std::vector<int>{0, 1}));
    EXPECT_EQ(overlap->start_ns, 1'201'000'000);  // the later holder's ok
    EXPECT_EQ(overlap->faults, (std::vector<std::int64_t>{1}));
    EXPECT_FALSE(overlap->advisory);
    for (auto op : overlap->ops) EXPECT_TRUE(m.linked_ops.contains(std::to_string(op))) << op;
}

TEST(ReportModel, LatencyAndThroughputCountEveryCompletedOp) {
    const History h = lockcheck::testing::paused_holder_history();
    const ReportModel m = build_report_model(h, run_checkers(h));
    EXPECT_EQ(m.latency_total, 6u);  // 4 acquires, 2 releases
    std::int64_t completions = 0;
    for (const auto& b : m.throughput) completions += b.ok + b.fail + b.info;
    EXPECT_EQ(completions, 6);
}

TEST(ReportModel, CapsWhatItDrawsOnALongHistoryAndSaysSo) {
    const History h = lockcheck::testing::long_valid_history(20'000);  // 120k ops
    ReportLimits limits;
    limits.max_holds = 500;
    limits.max_attempts = 400;
    limits.max_latency_points = 300;
    const ReportModel m = build_report_model(h, run_checkers(h), limits);
    ASSERT_EQ(m.keys.size(), 1u);
    EXPECT_EQ(m.keys[0].holds_total, 20'000u);
    EXPECT_LE(m.keys[0].holds.size(), 500u);
    EXPECT_LE(m.keys[0].attempts.size(), 20'000u);  // every granted attempt is kept
    EXPECT_EQ(m.latency.size(), 300u);
    EXPECT_GE(m.notes.size(), 2u);
    EXPECT_NE(m.notes[0].find("of 20000 lock sessions"), std::string::npos);
    const auto page = render_report_html({h, run_checkers(h), nlohmann::json::object(), nullptr, limits});
    EXPECT_LT(page.size(), 2'000'000u);
    EXPECT_NE(page.find("Drawn with caps"), std::string::npos);
}

TEST(VerdictStory, SaysWhichLockWhoOverlappedForHowLongUnderWhichFault) {
    const History h = lockcheck::testing::paused_holder_history();
    const auto report = run_checkers(h);
    const ReportModel m = build_report_model(h, report);
    const auto story = tell_verdict(report, m, {{"name", "paused"}, {"recipe", "redis-set-nx-px"}, {"topology", "redis-single"},
                                                {"workers", 2}, {"ttl_ms", 1000}, {"fencing", false}});
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

TEST(ReportPage, IsSelfContainedAndEscapesHistoryText) {
    History h = lockcheck::testing::paused_holder_history();
    h[0].owner = "</script><b>x";  // hostile text must not end the data block
    const auto report = run_checkers(h);
    const auto page = render_report_html({h, report, nlohmann::json::object(), nullptr});
    EXPECT_EQ(page.find("</script><b>x"), std::string::npos);
    EXPECT_EQ(page.find("http://"), page.find("http://www.w3.org/2000/svg"));  // the only URL: the SVG namespace
    EXPECT_EQ(page.find("https://"), std::string::npos);
    EXPECT_NE(page.find("id=\"verdict\" class=\"verdict invalid\""), std::string::npos);
}
