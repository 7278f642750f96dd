// report.html rendered in headless Chromium (tests/reports/browser_probe.hpp):
// the verdict, violation marks, fault bands, latency and throughput plots,
// legends, axes, narrow screens, advisories, "What now?" and long histories.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "checkers/run_checkers.hpp"
#include "reports/html_report.hpp"
#include "tests/reports/browser_probe.hpp"
#include "tests/support/report_fixtures.hpp"

namespace fs = std::filesystem;
using namespace lockcheck;
using nlohmann::json;
using namespace lockcheck::testing;

namespace {

class ReportInBrowser : public BrowserPageTest {
protected:
    /// The showcase run's report (see report_fixtures.hpp), with its schedule and a run directory.
    fs::path showcase_page(ReportLimits limits = {}) {
        history_ = lockcheck::testing::showcase_history();
        report_ = run_checkers(history_);
        const json spec = {{"name", "showcase"},
                           {"recipe", "redis-set-nx-px"},
                           {"topology", "redis-single"},
                           {"workers", 3},
                           {"ttl_ms", 1000},
                           {"fencing", false},
                           {"description", "A holder paused past its lease."}};
        write_report_html(work_ / "report.html", {history_, report_, json::object(), spec, limits, work_ / "run",
                                                  lockcheck::testing::showcase_schedule()});
        return work_ / "report.html";
    }

    /// The report of many_faults_history(faults) (see report_fixtures.hpp), with the report it was built from.
    fs::path many_faults_page(int faults) {
        history_ = lockcheck::testing::many_faults_history(faults);
        report_ = run_checkers(history_);
        write_report_html(work_ / "report.html", {history_, report_, json::object(), nullptr});
        return work_ / "report.html";
    }

    History history_;
    CheckReport report_;
};

const std::vector<std::string> kTimeline = {"svg.timeline",
                                            "rect.lane-bg",
                                            "text.lane-label",
                                            "rect.fault-band",
                                            "rect.fault-wait",
                                            "rect.fault-missed",
                                            "text.fault-label",
                                            "rect.violation-span.overlap",
                                            "rect.violation-span.write",
                                            "path.violation-marker",
                                            "rect.hold",
                                            "#timelines .legend span",
                                            "#timelines text.tick",
                                            "line.violation-guide",
                                            "li.violation.selected",
                                            "#zoom-label",
                                            "#violations > li",
                                            "details.advisory-group",
                                            "details.advisory-group summary",
                                            "table.checkers tr",
                                            "circle.latency-point",
                                            "circle.latency-point.slow",
                                            "path.quantile",
                                            "#latency .legend span",
                                            "#throughput .legend span",
                                            "#throughput text.y-tick",
                                            "#throughput text.tick",
                                            "#what-now li",
                                            "a.recipe-doc",
                                            "#replay-command",
                                            "#verdict p"};

TEST_F(ReportInBrowser, LoadsWithoutScriptErrorsAndShowsVerdictAndViolationMarkers) {
    const History h = lockcheck::testing::paused_holder_history();
    const auto report = run_checkers(h);
    const json spec = {{"name", "paused"},
                       {"recipe", "redis-set-nx-px"},
                       {"topology", "redis-single"},
                       {"workers", 2},
                       {"ttl_ms", 1000},
                       {"fencing", false}};
    write_report_html(work_ / "report.html", {h, report, json::object(), spec});
    const auto dom = rendered_dom(work_ / "report.html", work_);

    EXPECT_NE(dom.find("data-rendered=\"true\""), std::string::npos) << "the script did not finish";
    EXPECT_EQ(dom.find("class=\"script-error\""), std::string::npos) << dom.substr(0, 3000);
    EXPECT_NE(dom.find("INVALID: two clients held the same lock at the same time"), std::string::npos);
    EXPECT_NE(dom.find("Lock 'lock': worker 1 acquired it"), std::string::npos);
    EXPECT_EQ(count(dom, "class=\"lane-bg\""), 2u);
    EXPECT_GE(count(dom, "class=\"hold"), 2u);
    EXPECT_EQ(count(dom, "class=\"violation-marker overlap"), 1u);
    EXPECT_EQ(count(dom, "class=\"violation-span overlap"), 2u);  // the overlap, on both holders' lanes
    EXPECT_NE(dom.find("<li id=\"v0\" class=\"violation"), std::string::npos);
    EXPECT_GE(count(dom, "class=\"fault-band\""), 1u);
    EXPECT_NE(dom.find("<circle"), std::string::npos);  // the latency plot
}

TEST_F(ReportInBrowser, EverySlowOpIsPlottedWithQuantileLines) {  // item 1
    ReportLimits limits;
    limits.max_latency_points = 150;
    const auto probe = probe_page(showcase_page(limits), work_, kTimeline);
    const auto points = boxes(probe, "circle.latency-point");
    EXPECT_LE(points.size(), 150u);
    EXPECT_GE(points.size(), 100u);
    const auto slow = boxes(probe, "circle.latency-point.slow");
    ASSERT_FALSE(slow.empty());
    // The 2520 ms write is the highest point of the plot.
    const auto highest =
        std::min_element(points.begin(), points.end(), [](const Box& a, const Box& b) { return a.top < b.top; });
    EXPECT_NE(highest->cls.find("slow"), std::string::npos);
    EXPECT_EQ(boxes(probe, "path.quantile").size(), 2u);  // p50 and p99
    std::set<std::string> legend;
    for (const auto& s : boxes(probe, "#latency .legend span")) legend.insert(s.data.value("legend", ""));
    EXPECT_TRUE(legend.count("acquire") && legend.count("write")) << probe["found"]["#latency .legend span"];
    EXPECT_FALSE(legend.count("renew")) << "no renew op in this history";
}

TEST_F(ReportInBrowser, FaultBandsStartWhenTheFaultTookEffectAndShowTheWaitAndTheFaultsThatNeverHappened) {  // item 2
    const auto probe = probe_page(showcase_page(), work_, kTimeline);
    const auto bands = boxes(probe, "rect.fault-band");
    const auto waits = boxes(probe, "rect.fault-wait");
    const auto missed = boxes(probe, "rect.fault-missed");
    ASSERT_EQ(bands.size(), 2u * 3) << "2 faults in effect, behind the timeline and both plots";
    ASSERT_EQ(waits.size(), 3u) << "failover #2 waited 2 s before it took effect";
    EXPECT_EQ(missed.size(), 2u) << "failover #3 (no target) and #4 (never started), on the timeline only";
    // The wait ends where the band begins, and lasts twice as long as the band (2000 ms vs 1001 ms).
    const Box& wait = waits[0];
    const Box& failover = bands[1];
    EXPECT_NEAR(wait.right, failover.left, 0.6);
    EXPECT_NEAR((wait.right - wait.left) / (failover.right - failover.left), 2000.0 / 1001.0, 0.05);
    std::string labels;
    for (const auto& l : boxes(probe, "text.fault-label")) labels += l.text + "|";
    EXPECT_NE(labels.find("failover #3 (failed)"), std::string::npos) << labels;
    EXPECT_NE(labels.find("failover #4 (not run)"), std::string::npos) << labels;
    std::string verdict;
    for (const auto& p : boxes(probe, "#verdict p")) verdict += p.text + "\n";
    EXPECT_NE(verdict.find("Scheduled but not started before the run ended: failover #4"), std::string::npos)
        << verdict;
}

TEST_F(ReportInBrowser, ViolationsHighlightTheOverlapAndTheWriteWithTheirOwnMarks) {  // items 3, 4
    const auto probe = probe_page(showcase_page(), work_, kTimeline, 1280, "document.querySelector('a.jump').click();");
    // After "Show it on the timeline": zoomed to the overlap, which is selected and marked by a guide line.
    const auto lanes = boxes(probe, "rect.lane-bg");
    ASSERT_EQ(lanes.size(), 3u);
    const auto overlap = boxes(probe, "rect.violation-span.overlap");
    ASSERT_EQ(overlap.size(), 2u);
    EXPECT_TRUE(inside(overlap[0], lanes[0]) && inside(overlap[1], lanes[1])) << "on the lanes of workers 0 and 1";
    EXPECT_NEAR(overlap[0].left, overlap[1].left, 0.1);
    EXPECT_NEAR(overlap[0].right, overlap[1].right, 0.1);
    EXPECT_NE(overlap[0].cls.find("selected"), std::string::npos);
    EXPECT_EQ(boxes(probe, "line.violation-guide").size(), 1u);
    EXPECT_EQ(boxes(probe, "li.violation.selected").size(), 1u);
    EXPECT_NE(boxes(probe, "#zoom-label")[0].text.find("selected: violation 1 (overlap-lease-expired at 1.20 s)"),
              std::string::npos);
    // The lost update and the stale write: only the write, on worker 0's lane; never on worker 1's.
    const auto writes = boxes(probe, "rect.violation-span.write");
    ASSERT_FALSE(writes.empty());
    for (const auto& w : writes) {
        EXPECT_TRUE(inside(w, lanes[0])) << w.top << " " << w.bottom;
        EXPECT_FALSE(inside(w, lanes[1]));
    }
    std::set<std::string> shapes;  // a ▲ for the overlap, a ◆ for the write
    for (const auto& m : boxes(probe, "path.violation-marker"))
        shapes.insert(m.cls.find("overlap") != std::string::npos ? "overlap"
                      : m.cls.find("write") != std::string::npos ? "write"
                                                                 : m.cls);
    EXPECT_EQ(shapes, (std::set<std::string>{"overlap", "write"}));
    // The list says when each happened: the overlap when worker 1 was granted, the lost write when it completed.
    std::string list;
    for (const auto& li : boxes(probe, "#violations > li")) list += li.text + "\n";
    EXPECT_NE(list.find("overlap-lease-expired (mutual-exclusion) worker 1 acquired 'lock' at op"), std::string::npos)
        << list;
    EXPECT_NE(list.find("— at 1.20 s, ops"), std::string::npos) << list;
    EXPECT_NE(list.find("— at 2.61 s, ops"), std::string::npos) << list;
    EXPECT_EQ(list.find("at 0.0 ms"), std::string::npos) << list;
}

TEST_F(ReportInBrowser, WorkerBarsNeverWearALegendColourAndTheLegendListsWhatOccurs) {  // items 6, 9
    const auto probe = probe_page(showcase_page(), work_, kTimeline);
    std::set<std::string> bar_colours;
    for (const auto& h : boxes(probe, "rect.hold")) bar_colours.insert(h.fill);
    EXPECT_EQ(bar_colours, std::set<std::string>{"#4a7bd0"}) << "one colour for 'lock held', whatever the worker";
    std::set<std::string> legend;
    for (const auto& s : boxes(probe, "#timelines .legend span")) legend.insert(s.data.value("legend", ""));
    for (const char* shown : {"lock held", "held past its lease", "fault in effect", "fault on this worker",
                              "fault asked for, not yet in effect", "fault that never took effect",
                              "▲ overlap: two holders at once", "◆ lost update or stale write (the write)",
                              "acquire granted", "acquire refused: lock busy", "acquire failed"})
        EXPECT_TRUE(legend.count(shown)) << shown;
    EXPECT_TRUE(legend.count("■ other violation")) << "the stuck lock";
    EXPECT_FALSE(legend.count("acquire unsure (no definite answer)")) << "no acquire ended unsure";
}

TEST_F(ReportInBrowser, AxesHaveRoundUnclippedTicksAndTheThroughputPlotALegendAndScale) {  // item 9
    const auto probe = probe_page(showcase_page(), work_, kTimeline);
    const auto svg = boxes(probe, "svg.timeline").at(0);
    const auto ticks = boxes(probe, "#timelines text.tick");
    ASSERT_GE(ticks.size(), 4u);
    const double step = tick_ms(ticks[1].text) - tick_ms(ticks[0].text);
    const double power = std::pow(10, std::floor(std::log10(step)));
    EXPECT_TRUE(std::set<double>({1, 2, 5}).count(std::round(step / power))) << step;
    for (const auto& t : ticks) {
        EXPECT_NEAR(std::fmod(tick_ms(t.text), step), 0, 1e-6) << t.text;
        EXPECT_LE(t.right, svg.right + 0.5) << t.text << " is clipped";
    }
    EXPECT_GE(boxes(probe, "#throughput text.y-tick").size(), 3u);
    std::set<std::string> legend;
    for (const auto& s : boxes(probe, "#throughput .legend span")) legend.insert(s.data.value("legend", ""));
    EXPECT_TRUE(legend.count("ok") && legend.count("fail (definitely not done)"));
    EXPECT_FALSE(legend.count("info (unknown outcome)"));
}

TEST_F(ReportInBrowser, ManyFaultsShareLabelsThatNeverOverprint) {  // item 7
    const auto probe = probe_page(many_faults_page(47), work_, kTimeline);
    const auto labels = boxes(probe, "text.fault-label");
    ASSERT_FALSE(labels.empty());
    EXPECT_LT(labels.size(), 10u);
    for (std::size_t i = 1; i < labels.size(); ++i) EXPECT_GE(labels[i].left, labels[i - 1].right) << labels[i].text;
    EXPECT_NE(labels[0].text.find("kill-restart ×"), std::string::npos) << labels[0].text;
    std::string verdict;
    for (const auto& p : boxes(probe, "#verdict p")) verdict += p.text + "\n";
    EXPECT_NE(verdict.find("40 × kill-restart (#8–#47)"), std::string::npos) << verdict;
}

TEST_F(ReportInBrowser, FitsANarrowScreen) {  // item 8
    const auto page = showcase_page();
    EXPECT_NE(read_file(page).find("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"),
              std::string::npos);
    const auto probe = probe_page(page, work_, {"svg.timeline", "svg.plot", "table.checkers"}, 390);
    EXPECT_EQ(probe["vw"], 390);
    EXPECT_LE(probe["sw"].get<double>(), 390) << "the page scrolls sideways";
    for (const auto* selector : {"svg.timeline", "svg.plot"})
        for (const auto& svg : boxes(probe, selector)) {
            EXPECT_GE(svg.left, 0);
            EXPECT_LE(svg.right, 390) << selector;
            EXPECT_GE(svg.right - svg.left, 300) << selector;
        }
}

TEST_F(ReportInBrowser, AdvisoryFindingsAreOneGreyCollapsedEntryWithTheirCount) {  // item 10
    const auto probe = probe_page(many_faults_page(10), work_, kTimeline);
    const auto groups = boxes(probe, "details.advisory-group");
    ASSERT_EQ(groups.size(), 1u);
    std::size_t advisory = 0;
    for (const auto& c : report_.checkers) advisory += c.counts_toward_verdict ? 0 : c.violations_total();
    EXPECT_EQ(groups[0].data.value("count", ""), std::to_string(advisory));
    const auto summary = boxes(probe, "details.advisory-group summary").at(0);
    EXPECT_EQ(summary.text.rfind("double-grant × " + std::to_string(advisory), 0), 0u) << summary.text;
    EXPECT_EQ(summary.color, "rgb(102, 102, 119)") << "grey, not red";
    EXPECT_LT(groups[0].bottom - groups[0].top, 60) << "collapsed";
    for (const auto& li : boxes(probe, "#violations > li")) EXPECT_EQ(li.text.find("double-grant"), std::string::npos);
    for (const auto& row : boxes(probe, "table.checkers tr"))
        if (row.data.value("checker", "") == "linearizability") {
            EXPECT_EQ(row.cls, "advisory");
            EXPECT_EQ(row.text.find("invalid"), std::string::npos) << row.text;
        }
}

TEST_F(ReportInBrowser, WhatNowNamesTheMitigationsTheRecipePageAndTheReplayCommand) {  // item 12
    const auto probe = probe_page(showcase_page(), work_, kTimeline);
    std::string mitigations;
    for (const auto& li : boxes(probe, "#what-now li")) mitigations += li.text + "\n";
    EXPECT_NE(mitigations.find("Fencing:"), std::string::npos) << mitigations;
    EXPECT_NE(mitigations.find("A lease longer than the longest pause"), std::string::npos) << mitigations;
    const auto doc = boxes(probe, "a.recipe-doc");
    ASSERT_EQ(doc.size(), 1u);
    EXPECT_EQ(doc[0].text, "docs/recipes/redis-set-nx-px.md");
    EXPECT_TRUE(fs::exists(doc[0].href.substr(std::string("file://").size()))) << doc[0].href;
    EXPECT_EQ(boxes(probe, "#replay-command").at(0).text, "lockcheck run --replay " + (work_ / "run").string());
}

TEST_F(ReportInBrowser, ALongHistoryRendersCappedWithoutErrors) {
    const History h = lockcheck::testing::long_valid_history(17'000);  // ~100k ops
    const auto report = run_checkers(h);
    write_report_html(work_ / "report.html", {h, report, json::object(), nullptr});
    EXPECT_LT(fs::file_size(work_ / "report.html"), 1'500'000u);
    const auto dom = rendered_dom(work_ / "report.html", work_);
    EXPECT_NE(dom.find("data-rendered=\"true\""), std::string::npos);
    EXPECT_EQ(dom.find("class=\"script-error\""), std::string::npos);
    EXPECT_NE(dom.find("Drawn with caps"), std::string::npos);
    EXPECT_NE(dom.find("data-verdict=\"valid\""), std::string::npos);
    EXPECT_LE(count(dom, "class=\"hold"), ReportLimits{}.max_holds);
}

TEST_F(ReportInBrowser, ManyLanesAreAggregatedKeepingTheViolationsLanesAndDrawnInFullOnRequest) {
    const History h = lockcheck::testing::crowded_history(300);  // 600 lanes: aggregated
    const auto report = run_checkers(h);
    write_report_html(work_ / "report.html", {h, report, json::object(), nullptr});
    const std::vector<std::string> selectors = {"rect.lane-bg", "text.lane-label", "rect.violation-span.overlap",
                                                "button.lanes-toggle", "#notes li"};
    const auto probe = probe_page(work_ / "report.html", work_, selectors);
    std::vector<std::string> labels;
    for (const auto& l : boxes(probe, "text.lane-label")) labels.push_back(l.text);
    ASSERT_EQ(labels.size(), 4u);  // a shared lane's label carries its tooltip (a <title>) in its text
    EXPECT_EQ(labels[0].rfind("298 others298 workers share this lane", 0), 0u) << labels[0];
    EXPECT_EQ(labels[1], "worker 3");
    EXPECT_EQ(labels[2], "worker 4");
    EXPECT_EQ(labels[3].rfind("300 workers300 workers share this lane", 0), 0u) << labels[3];
    const auto lanes = boxes(probe, "rect.lane-bg");
    ASSERT_EQ(lanes.size(), 4u);
    const auto overlap = boxes(probe, "rect.violation-span.overlap");
    ASSERT_EQ(overlap.size(), 2u);
    EXPECT_TRUE(inside(overlap[0], lanes[1]) && inside(overlap[1], lanes[2])) << "on the lanes of workers 3 and 4";
    const auto buttons = boxes(probe, "button.lanes-toggle");
    ASSERT_EQ(buttons.size(), 2u);
    EXPECT_EQ(buttons[0].text, "Show all 300 lanes");
    std::string notes;
    for (const auto& li : boxes(probe, "#notes li")) notes += li.text + "\n";
    EXPECT_NE(notes.find("600 worker lanes over 2 keys"), std::string::npos) << notes;

    // "Show all 300 lanes" on 'lock': a lane per worker there, the overlap still on workers 3 and 4.
    const auto full = probe_page(work_ / "report.html", work_, selectors, 1280,
                                 "document.querySelector('button.lanes-toggle').click();");
    const auto all_lanes = boxes(full, "rect.lane-bg");
    ASSERT_EQ(all_lanes.size(), 301u);
    const auto spans = boxes(full, "rect.violation-span.overlap");
    ASSERT_EQ(spans.size(), 2u);
    EXPECT_TRUE(inside(spans[0], all_lanes[3]) && inside(spans[1], all_lanes[4]));
    EXPECT_EQ(boxes(full, "button.lanes-toggle").at(0).text, "Aggregate the lanes");
}

}  // namespace
