// The data behind report.html and its verdict sentence, on constructed histories.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "checkers/run_checkers.hpp"
#include "reports/html_report.hpp"
#include "reports/thinning.hpp"
#include "reports/timeline_model.hpp"
#include "reports/what_now.hpp"
#include "tests/support/history_builder.hpp"
#include "tests/support/report_fixtures.hpp"

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
    EXPECT_EQ(key.holds[0].end_ns, 2'701'000'000);  // until its (failed) release completed
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
    EXPECT_EQ(m.faults[0].invoke_ns, 100'000'000);
    EXPECT_EQ(m.faults[0].start_ns, 101'000'000);  // in effect from the start-fault's completion
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
    EXPECT_EQ(overlap->at_ns, 1'201'000'000);  // the later holder's ok
    EXPECT_EQ(overlap->shape, MarkShape::Overlap);
    EXPECT_EQ(overlap->faults, (std::vector<std::int64_t>{1}));
    EXPECT_FALSE(overlap->advisory);
    for (auto op : overlap->ops) EXPECT_TRUE(m.linked_ops.contains(std::to_string(op))) << op;
}

TEST(ReportModel, LatencyAndThroughputCountEveryCompletedOp) {
    const History h = lockcheck::testing::paused_holder_history();
    const ReportModel m = build_report_model(h, run_checkers(h));
    EXPECT_EQ(m.latency.total, 6u);  // 4 acquires, 2 releases
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
    EXPECT_GE(m.keys[0].attempts_total, 20'000u);
    EXPECT_LE(m.keys[0].attempts.size(), 400u);  // a valid history: no attempt is cited, the cap holds
    EXPECT_EQ(m.latency.points.size(), 300u);
    EXPECT_GE(m.notes.size(), 2u);
    EXPECT_NE(m.notes[0].find("of 20000 lock sessions"), std::string::npos);
    const auto page = render_report_html({h, run_checkers(h), nlohmann::json::object(), nullptr, limits});
    EXPECT_LT(page.size(), 2'000'000u);
    EXPECT_NE(page.find("Drawn with caps"), std::string::npos);
}

TEST(ReportModel, KeepsTheAttemptsAViolationCitesPastTheCap) {
    // 2000 valid sessions, then a double grant: worker 4 is granted while worker 3 holds the lock.
    lockcheck::testing::HistoryBuilder b;
    for (int i = 0; i < 2000; ++i) b.session(i % 3, i * 10.0, i * 10.0 + 1, i * 10.0 + 8, i * 10.0 + 9);
    const double t = 2000 * 10.0;
    b.acquire_invoke(t, 3);
    b.acquire_done(t + 1, 3, OpType::Ok);
    const std::int64_t second = b.acquire_invoke(t + 2, 4);
    b.acquire_done(t + 3, 4, OpType::Ok);
    b.release_invoke(t + 4, 4);
    b.release_done(t + 5, 4, OpType::Ok);
    b.release_invoke(t + 6, 3);
    b.release_done(t + 7, 3, OpType::Ok);
    const History& h = b.history();
    const CheckReport report = run_checkers(h);
    ASSERT_EQ(report.valid, Validity::Invalid);
    ReportLimits limits;
    limits.max_attempts = 50;
    const ReportModel m = build_report_model(h, report, limits);
    ASSERT_EQ(m.keys.size(), 1u);
    EXPECT_EQ(m.keys[0].attempts_total, 2002u);
    EXPECT_LE(m.keys[0].attempts.size(), 50u);
    const auto& attempts = m.keys[0].attempts;
    EXPECT_TRUE(std::any_of(attempts.begin(), attempts.end(), [&](const AcquireMark& a) { return a.op == second; }))
        << "the second grant's attempt is cited by the overlap and must stay visible";
}

TEST(ReportModel, AggregatesTheLanesOfManyWorkersButKeepsTheLanesAViolationCites) {
    const History h = lockcheck::testing::crowded_history(300);  // 2 keys x 300 workers: 600 lanes > 400
    const CheckReport report = run_checkers(h);
    ASSERT_EQ(report.valid, Validity::Invalid);
    const ReportModel m = build_report_model(h, report);
    ASSERT_EQ(m.keys.size(), 2u);
    const auto& lock = m.keys[0];
    const auto& spare = m.keys[1];
    ASSERT_EQ(lock.key, "lock");
    EXPECT_EQ(lock.processes.size(), 300u) << "every worker stays listed: the page draws them all on request";
    EXPECT_TRUE(lock.aggregated);
    EXPECT_EQ(lock.own_lanes, (std::vector<int>{3, 4})) << "the overlap's two workers";
    EXPECT_TRUE(spare.aggregated);
    EXPECT_TRUE(spare.own_lanes.empty()) << "no violation on 'spare'";
    std::size_t marked = 0;
    for (const auto& mark : m.violations) {
        if (mark.advisory) continue;
        ++marked;
        const auto& key = mark.key == "spare" ? spare : lock;
        for (const auto& span : mark.spans)
            EXPECT_NE(std::find(key.own_lanes.begin(), key.own_lanes.end(), span.process), key.own_lanes.end())
                << mark.kind << " on worker " << span.process << " has no lane of its own";
    }
    EXPECT_GE(marked, 1u);
    const auto cited_hold = std::find_if(lock.holds.begin(), lock.holds.end(), [](const HoldBar& bar) {
        return bar.process == 4 && bar.start_ns == 6'003'000'000;
    });
    EXPECT_NE(cited_hold, lock.holds.end()) << "the overlapping grant's bar is still drawn";
    const auto note = std::find_if(m.notes.begin(), m.notes.end(), [](const std::string& n) {
        return n.find("600 worker lanes over 2 keys") != std::string::npos;
    });
    ASSERT_NE(note, m.notes.end());
    EXPECT_NE(note->find("\"Show all N lanes\" above a key's timeline"), std::string::npos) << *note;
    const auto json = report_model_to_json(m);
    EXPECT_EQ(json["keys"][0]["aggregated"], true);
    EXPECT_EQ(json["keys"][0]["own_lanes"], nlohmann::json::array({3, 4}));
}

TEST(ReportModel, DrawsALanePerWorkerUpToTheLaneLimit) {
    for (const auto& [workers, max_lanes] : {std::pair{150, std::size_t{400}}, std::pair{300, std::size_t{600}}}) {
        const History h = lockcheck::testing::crowded_history(workers);
        ReportLimits limits;
        limits.max_lanes = max_lanes;
        const ReportModel m = build_report_model(h, run_checkers(h), limits);
        for (const auto& key : m.keys) {
            EXPECT_FALSE(key.aggregated) << key.key << " with " << workers << " workers, limit " << max_lanes;
            EXPECT_TRUE(key.own_lanes.empty());
            EXPECT_EQ(key.processes.size(), static_cast<std::size_t>(workers));
        }
        for (const auto& note : m.notes) EXPECT_EQ(note.find("worker lanes"), std::string::npos) << note;
    }
    const History small = lockcheck::testing::showcase_history();
    for (const auto& key : build_report_model(small, run_checkers(small)).keys) EXPECT_FALSE(key.aggregated);
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

TEST(ReportModel, TheLatencyPlotKeepsEverySlowOpWhenItThins) {
    // Regression: evenly spaced thinning drew 1 of 7 stale writes of ~2 s in holder-pause.
    const History h = lockcheck::testing::showcase_history();
    ReportLimits limits;
    limits.max_latency_points = 100;
    const ReportModel m = build_report_model(h, run_checkers(h), limits);
    ASSERT_GT(m.latency.total, 1000u);
    EXPECT_LE(m.latency.points.size(), 100u);
    const auto slow = std::count_if(m.latency.points.begin(), m.latency.points.end(),
                                    [](const LatencyPoint& p) { return p.ms > 2000; });
    EXPECT_EQ(slow, 1) << "worker 0's write of 2520 ms must be drawn";
    EXPECT_EQ(m.latency.slow_drawn, m.latency.slow_total);
    EXPECT_GE(m.latency.p99_ms, 1.0);
    // The quantile lines cover every op, drawn or not.
    std::size_t counted = 0;
    double worst = 0;
    for (const auto& b : m.latency.buckets) {
        counted += b.count;
        worst = std::max(worst, b.max);
        EXPECT_LE(b.p50, b.p99);
    }
    EXPECT_EQ(counted, m.latency.total);
    EXPECT_DOUBLE_EQ(worst, 2520.0);
    ASSERT_FALSE(m.notes.empty());
    EXPECT_NE(m.notes.back().find("slower than the p99"), std::string::npos) << m.notes.back();
}

TEST(ReportModel, SlowOpsBeyondTheCapKeepTheSlowest) {
    lockcheck::testing::HistoryBuilder b;
    for (int i = 0; i < 400; ++i) b.read(i * 10.0, i * 10.0 + 1 + i, 0, 0);  // latency 1 + i ms
    ReportLimits limits;
    limits.max_latency_points = 3;
    const ReportModel m = build_report_model(b.history(), run_checkers(b.history()), limits);
    ASSERT_EQ(m.latency.points.size(), 3u);
    for (const auto& p : m.latency.points) EXPECT_GE(p.ms, 398.0);
}

TEST(ReportModel, FaultBandsStartWhenTheFaultTookEffectAndKeepWhatNeverHappened) {
    const History h = lockcheck::testing::showcase_history();
    const ReportModel m = build_report_model(h, run_checkers(h), {}, lockcheck::testing::showcase_schedule());
    ASSERT_EQ(m.faults.size(), 4u);
    const auto& failover = m.faults[1];
    EXPECT_EQ(failover.kind, "failover");
    EXPECT_EQ(failover.status, FaultStatus::Effective);
    EXPECT_EQ(failover.invoke_ns, 3'000'000'000);
    EXPECT_EQ(failover.start_ns, 5'000'000'000);  // after waiting 2 s for the cluster to settle
    EXPECT_EQ(failover.wait_ns(), 2'000'000'000);
    EXPECT_EQ(failover.end_ns, 6'001'000'000);
    EXPECT_EQ(failover.targets, (std::vector<std::string>{"n1"}));
    EXPECT_EQ(m.faults[2].status, FaultStatus::Failed);
    EXPECT_EQ(m.faults[2].error, "no target");
    EXPECT_EQ(m.faults[2].end_ns, m.faults[2].start_ns) << "a fault that did not start is in effect for no time";
    EXPECT_EQ(m.faults[3].status, FaultStatus::NotRun);
    EXPECT_EQ(m.faults[3].start_ns, 7'200'000'000);
    EXPECT_EQ(m.faults[3].end_ns, 7'700'000'000);
    const auto sentence = faults_sentence(m.faults);
    EXPECT_NE(sentence.find("2 faults injected: 1 × failover, 1 × pause-holder."), std::string::npos) << sentence;
    EXPECT_NE(sentence.find("Did not take effect: failover #3 (no target)"), std::string::npos) << sentence;
    EXPECT_NE(sentence.find("Scheduled but not started before the run ended: failover #4 (due at 7.20 s)"),
              std::string::npos)
        << sentence;
}

TEST(ReportModel, ViolationsMarkTheOverlapAndTheWriteNotEveryCitedWorker) {
    const History h = lockcheck::testing::showcase_history();
    const ReportModel m = build_report_model(h, run_checkers(h));
    const auto* overlap = find_kind(m, "overlap-lease-expired");
    ASSERT_NE(overlap, nullptr);
    ASSERT_EQ(overlap->spans.size(), 2u);
    for (const auto& span : overlap->spans) {  // exactly while both held it: worker 1's grant to its release
        EXPECT_EQ(span.start_ns, 1'201'000'000);
        EXPECT_EQ(span.end_ns, 1'400'000'000);
    }
    EXPECT_EQ(overlap->spans[0].process, 0);
    EXPECT_EQ(overlap->spans[1].process, 1);

    const auto* lost = find_kind(m, "lost-update");
    ASSERT_NE(lost, nullptr);
    EXPECT_EQ(lost->shape, MarkShape::Write);
    EXPECT_EQ(lost->processes, (std::vector<int>{0, 1})) << "it cites worker 1's write";
    ASSERT_EQ(lost->spans.size(), 1u) << "but only the lost write is highlighted";
    EXPECT_EQ(lost->spans[0].process, 0);
    EXPECT_EQ(lost->spans[0].start_ns, 90'000'000);
    EXPECT_EQ(lost->spans[0].end_ns, 2'610'000'000);
    EXPECT_EQ(lost->at_ns, 2'610'000'000) << "when the resource accepted the write, not the read it came from";
    EXPECT_LT(lost->start_ns, lost->at_ns) << "zooming to it still shows the read";
    const auto* stale = find_kind(m, "stale-write-accepted");
    ASSERT_NE(stale, nullptr);
    EXPECT_EQ(stale->at_ns, 2'610'000'000);
    EXPECT_EQ(stale->faults, (std::vector<std::int64_t>{1}));
}

TEST(ReportModel, AdvisoryFindingsAreOneGroupPerKindWithTheirCount) {
    const History h = lockcheck::testing::many_faults_history(10);
    const auto report = run_checkers(h);
    const ReportModel m = build_report_model(h, report);
    ASSERT_EQ(m.advisory.size(), 1u);
    EXPECT_EQ(m.advisory[0].checker, "linearizability");
    EXPECT_EQ(m.advisory[0].kind, "double-grant");
    std::size_t total = 0;
    for (const auto& c : report.checkers)
        if (!c.counts_toward_verdict) total += c.violations_total();
    EXPECT_EQ(m.advisory[0].count, total);
    EXPECT_NE(m.advisory[0].note.find("strict lock model"), std::string::npos);
    EXPECT_FALSE(m.violations.front().advisory) << "findings that count come first";
}

TEST(ReportPage, WhatNowNamesTheMitigationsTheRecipePageAndTheReplayCommand) {
    const History h = lockcheck::testing::showcase_history();
    const auto report = run_checkers(h);
    const nlohmann::json spec = {{"name", "showcase"},
                                 {"recipe", "redis-set-nx-px"},
                                 {"ttl_ms", 1000},
                                 {"fencing", false},
                                 {"description", "A holder paused past its lease <b>."}};
    const auto w = what_now(report, build_report_model(h, report), spec, "/tmp/store/showcase/run-1");
    ASSERT_GE(w.mitigations.size(), 2u);
    EXPECT_EQ(w.mitigations[0].rfind("Fencing:", 0), 0u) << w.mitigations[0];
    EXPECT_NE(w.mitigations[1].find("a pause of 2500 ms outlived a lease of 1000 ms"), std::string::npos)
        << w.mitigations[1];
    EXPECT_EQ(w.recipe_doc, "docs/recipes/redis-set-nx-px.md");
    EXPECT_TRUE(std::filesystem::exists(w.recipe_doc_file));
    EXPECT_EQ(w.replay_command, "lockcheck run --replay /tmp/store/showcase/run-1");
    const auto page = render_report_html({h, report, nlohmann::json::object(), spec, {}, "/tmp/store/showcase/run-1"});
    EXPECT_NE(page.find("<section id=\"what-now\""), std::string::npos);
    EXPECT_NE(page.find("A holder paused past its lease &lt;b&gt;."), std::string::npos);
    EXPECT_NE(page.find("lockcheck run --replay /tmp/store/showcase/run-1"), std::string::npos);

    const auto fenced = what_now(report, build_report_model(h, report), {{"fencing", true}, {"ttl_ms", 1000}}, "");
    for (const auto& m : fenced.mitigations)
        EXPECT_EQ(m.rfind("Fencing:", 0), std::string::npos) << "fencing was on: " << m;
    EXPECT_EQ(fenced.replay_command, "");
    EXPECT_EQ(fenced.recipe_doc, "");
}

TEST(ReportPage, WhatNowBlamesTheDiskForAnOverlapAfterACorruptFileThatEndedBeforeIt) {
    // The holder's grant is lost while the node is down; the fault's band ends at the restart, before the
    // next grant, but its effect (the cut AOF) outlasts it.
    lockcheck::testing::HistoryBuilder b;
    b.acquire_invoke(0, 1, 10'000);
    b.acquire_done(1, 1, OpType::Ok);
    b.add(100, kNemesisProcess, OpType::Invoke, std::string(fn::kStartFault), "");
    b.history().back().value = {{"fault", "corrupt-file"}, {"id", 1}};
    b.add(150, kNemesisProcess, OpType::Info, std::string(fn::kStartFault), "");
    b.history().back().value = {{"fault", "corrupt-file"}, {"id", 1}, {"targets", {"n1", "aof-incr: cut"}}};
    for (const OpType type : {OpType::Invoke, OpType::Info}) {
        b.add(200, kNemesisProcess, type, std::string(fn::kStopFault), "");
        b.history().back().value = {{"fault", "corrupt-file"}, {"id", 1}};
    }
    b.acquire_invoke(300, 2, 10'000);
    b.acquire_done(301, 2, OpType::Ok);
    b.release(400, 401, 2);
    b.release(500, 501, 1);
    const auto report = run_checkers(b.history());
    const auto w = what_now(report, build_report_model(b.history(), report), {{"ttl_ms", 10'000}}, "");
    const bool names_the_disk = std::any_of(w.mitigations.begin(), w.mitigations.end(), [](const std::string& m) {
        return m.find("The server's disk lost writes it had acknowledged") != std::string::npos;
    });
    EXPECT_TRUE(names_the_disk) << (w.mitigations.empty() ? "" : w.mitigations.back());
}

TEST(ReportPage, AnAdvisoryCheckerIsNeverShownAsInvalid) {
    const History h = lockcheck::testing::paused_holder_history();
    const auto report = run_checkers(h);
    const auto page = render_report_html({h, report, nlohmann::json::object(), nullptr});
    const auto row = page.find("<tr class=\"advisory\" data-checker=\"linearizability\">");
    ASSERT_NE(row, std::string::npos) << page.substr(page.find("<table class=\"checkers\""), 1500);
    const auto row_end = page.find("</tr>", row);
    EXPECT_EQ(page.substr(row, row_end - row).find("invalid"), std::string::npos) << page.substr(row, row_end - row);
    EXPECT_NE(page.find("<meta name=\"viewport\""), std::string::npos);
}

TEST(Thinning, KeepsWhatMustStayThenEvenlySpacedOthers) {
    std::vector<int> items(100);
    for (int i = 0; i < 100; ++i) items[static_cast<std::size_t>(i)] = i;
    int asked = 0;
    const auto thinned = thin(items, 10, [&](int x) {
        ++asked;
        return x == 50;
    });
    EXPECT_EQ(asked, 100);  // once per item
    // 50 first, then 9 of the other 99, one every 11.
    EXPECT_EQ(thinned, (std::vector<int>{50, 0, 11, 22, 33, 44, 56, 67, 78, 89}));
    // More that must stay than the cap: all of them, nothing else.
    const auto sevens = thin(items, 10, [](int x) { return x % 7 == 0; });
    EXPECT_EQ(sevens.size(), 15u);
    EXPECT_EQ(sevens.back(), 98);
    // Under the cap: untouched.
    EXPECT_EQ(thin(items, 100, [](int) { return false; }), items);
}
