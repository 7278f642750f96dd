// Renders generated report.html and compare.html pages in headless Chromium
// (Debian's `chromium`) and checks what the page drew by structure, never by
// pixels: which elements exist, how many, their attributes, and where they
// are. The page's own window.onerror hook writes script errors into the DOM
// (#script-errors li.script-error), which --dump-dom shows.
//
// Positions come from a probe: the test appends a script to a copy of the
// page that (optionally clicks something and) records the bounding boxes,
// attributes and texts of the elements the test names, as JSON in a
// <pre id="lockcheck-probe">, which --dump-dom then carries out.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "checkers/run_checkers.hpp"
#include "reports/compare_html.hpp"
#include "reports/compare_metrics.hpp"
#include "reports/html_report.hpp"
#include "reports/markup.hpp"
#include "reports/store_index.hpp"
#include "tests/support/report_fixtures.hpp"

namespace fs = std::filesystem;
using namespace lockcheck;
using nlohmann::json;

namespace {

const char* kChromium = "/usr/bin/chromium";

std::string read_file(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

/// The DOM after the page's scripts ran, from `chromium --headless --dump-dom`, in a window `width` px wide.
std::string rendered_dom(const fs::path& page, const fs::path& work, int width = 1280) {
    const auto profile = work / "profile";
    const auto out = work / "dom.html";
    const std::string command = std::string("timeout 90 ") + kChromium +
                                " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
                                " --disable-background-networking --disable-component-update --disable-sync"
                                " --hide-scrollbars --window-size=" +
                                std::to_string(width) +
                                ",900"
                                " --user-data-dir=" +
                                profile.string() + " --dump-dom file://" + page.string() + " > " + out.string() +
                                " 2> " + (work / "chromium.log").string();
    const int status = std::system(command.c_str());
    EXPECT_EQ(status, 0) << command << "\n" << read_file(work / "chromium.log");
    return read_file(out);
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

std::string unescape_text(std::string text) {
    for (const auto& [from, to] :
         {std::pair<std::string, std::string>{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&amp;", "&"}}) {
        for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
            text.replace(at, from.size(), to);
    }
    return text;
}

/// A box as the probe reports it.
struct Box {
    double left = 0, top = 0, right = 0, bottom = 0;
    std::string cls, text, fill, color, d, href;
    json data;  ///< the element's data-* attributes
};

std::vector<Box> boxes(const json& probe, const std::string& selector) {
    std::vector<Box> out;
    for (const auto& e : probe["found"].value(selector, json::array()))
        out.push_back(
            {e["l"], e["t"], e["r"], e["b"], e["cls"], e["text"], e["fill"], e["color"], e["d"], e["href"], e["data"]});
    return out;
}

bool inside(const Box& inner, const Box& outer, double slack = 0.5) {
    return inner.top >= outer.top - slack && inner.bottom <= outer.bottom + slack;
}

/// Chromium's headless window is never narrower than this.
constexpr int kNarrowestWindow = 500;

/// Renders `page` (copied, with the probe appended) and returns what the probe saw of `selectors`;
/// `before` is script run first (e.g. a click).
json probe_page(const fs::path& page, const fs::path& work, const std::vector<std::string>& selectors, int width = 1280,
                const std::string& before = "") {
    const std::string probe =
        "<script>(function(){" + before +
        "var out={vw:window.innerWidth,sw:document.documentElement.scrollWidth,found:{}};"
        "var sels=" +
        json(selectors).dump() +
        ";"
        "sels.forEach(function(s){out.found[s]=Array.prototype.map.call(document.querySelectorAll(s),function(e){"
        "var b=e.getBoundingClientRect(),cs=getComputedStyle(e),d={};"
        "Array.prototype.forEach.call(e.attributes,function(a){if(a.name.indexOf('data-')===0)d[a.name.slice(5)]=a."
        "value;});"
        "return "
        "{l:b.left,t:b.top,r:b.right,b:b.bottom,cls:e.getAttribute('class')||'',text:(e.textContent||'').slice(0,400),"
        "fill:e.getAttribute('fill')||cs.fill||'',color:cs.color||'',d:e.getAttribute('d')||'',href:e.getAttribute('"
        "href')||'',data:d};"
        "});});"
        "var host=window.parent.document;var pre=host.createElement('pre');pre.id='lockcheck-probe';"
        "pre.textContent=JSON.stringify(out);host.body.appendChild(pre);})();</script>";
    auto html = read_file(page);
    html.insert(html.rfind("</body>"), probe);
    // A page whose policy forbids scripts (compare.html) is probed without it: the probe is a script.
    const auto policy = html.find("<meta http-equiv=\"Content-Security-Policy\"");
    if (policy != std::string::npos &&
        html.substr(policy, html.find('>', policy) - policy).find("script-src") == std::string::npos)
        html.erase(policy, html.find('>', policy) + 1 - policy);
    auto probed = work / ("probed-" + std::to_string(width) + ".html");
    std::ofstream(probed) << html;
    if (width < kNarrowestWindow) {  // Chromium's window is at least 500 px wide: a narrower page goes in an iframe
        std::ofstream(work / "narrow.html")
            << "<!DOCTYPE html><html><body style=\"margin:0\"><iframe style=\"border:0\" width=\"" << width
            << "\" height=\"900\" srcdoc=\"" << escape_markup(html) << "\"></iframe></body></html>";
        probed = work / "narrow.html";
    }
    const auto dom = rendered_dom(probed, work, std::max(width, kNarrowestWindow));
    EXPECT_EQ(dom.find("class=\"script-error\""), std::string::npos) << dom.substr(0, 3000);
    const auto start = dom.find("<pre id=\"lockcheck-probe\">");
    if (start == std::string::npos) {
        ADD_FAILURE() << "the probe did not run";
        return json{{"found", json::object()}};
    }
    const auto body = start + std::string("<pre id=\"lockcheck-probe\">").size();
    return json::parse(unescape_text(dom.substr(body, dom.find("</pre>", body) - body)));
}

/// Milliseconds of a tick label ("2.5 s", "250 ms").
double tick_ms(const std::string& text) {
    std::smatch m;
    static const std::regex pattern(R"(^(-?[0-9.]+) (s|ms)$)");
    EXPECT_TRUE(std::regex_match(text, m, pattern)) << text;
    if (m.empty()) return NAN;
    return std::stod(m[1]) * (m[2] == "s" ? 1000 : 1);
}

class ReportInBrowser : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_TRUE(fs::exists(kChromium)) << "Debian's chromium is not installed (scripts/setup.sh installs it)";
        work_ = fs::temp_directory_path() / ("lockcheck-browser-" + std::to_string(::getpid()));
        fs::remove_all(work_);
        fs::create_directories(work_);
    }
    void TearDown() override { fs::remove_all(work_); }

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

    fs::path work_;
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

}  // namespace

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

TEST_F(ReportInBrowser, CompareLinksItsRunsShowsEveryRunAndFitsANarrowScreen) {  // item 11
    RunMetrics a, b;
    a.verdict = "invalid";
    a.lease_expired = 4;
    a.lost_updates = 2;
    a.run_dir = "cells/00/run-0/x";
    b = a;
    b.lease_expired = 1;
    b.run_dir = "cells/00/run-1/x";
    const json compare = {{"spec_name", "s"},
                          {"runs", 2},
                          {"seeds", {1, 2}},
                          {"cells",
                           {cell_to_json(summarize_cell("restart_delay_ms=2xttl (2000 ms)", {a, b})),
                            cell_to_json(summarize_cell("restart_delay_ms=0", {}))}}};
    std::ofstream(work_ / "compare.html") << render_compare_html(compare);
    const auto probe = probe_page(work_ / "compare.html", work_,
                                  {"a.run-link", "circle.run-dot", "rect.bar", ".axis-title", ".empty-cell", "td.why",
                                   "#compare-table td", "div.chart", "svg text"},
                                  390);
    const auto links = boxes(probe, "a.run-link");
    ASSERT_EQ(links.size(), 2u);
    EXPECT_EQ(links[0].href, "cells/00/run-0/x/report.html");
    EXPECT_EQ(boxes(probe, "circle.run-dot").size(), 6u);
    EXPECT_EQ(boxes(probe, ".axis-title").size(), 2u);
    ASSERT_EQ(boxes(probe, ".empty-cell").size(), 1u);
    EXPECT_NE(boxes(probe, "td.why").at(0).text.find("not run"), std::string::npos);
    std::string cells;
    for (const auto& td : boxes(probe, "#compare-table td")) cells += td.text + "|";
    EXPECT_NE(cells.find("restart_delay_ms=2xttl (2000 ms)"), std::string::npos);
    EXPECT_LE(boxes(probe, "div.chart").at(0).right, 390) << "a wide chart scrolls inside its box";
    EXPECT_LE(probe["sw"].get<double>(), 390) << "the page does not scroll sideways";
    for (const auto& text : boxes(probe, "svg text"))
        EXPECT_GE(text.bottom - text.top, 10) << "'" << text.text << "' is shrunk to illegible";
}

TEST_F(ReportInBrowser, StoreIndexListsEveryRunNewestFirstWithItsVerdictAndFitsANarrowScreen) {  // issue 15, item 17
    std::vector<IndexedRun> runs(3);
    runs[0] = {"redis-no-faults/20261103T080000Z-dddddd",
               "redis-no-faults",
               "2026-11-03 08:00:00 UTC",
               "",
               "",
               "",
               std::nullopt,
               false};
    runs[1] = {"redis-holder-pause/20261102T090000Z-cccccc",
               "redis-holder-pause",
               "2026-11-02 09:00:00 UTC",
               "invalid",
               "met",
               "lockcheck worker (redis-set-nx-px)",
               20.5,
               true};
    runs[2] = {"redis-quick-no-faults/20261101T100000Z-aaaaaa",
               "<b>odd</b>",
               "2026-11-01 10:00:00 UTC",
               "valid",
               "",
               "python redis-py SET NX PX, compare-and-delete release",
               5.1,
               true};
    std::ofstream(work_ / "index.html") << render_store_index(runs, "store");
    const auto probe =
        probe_page(work_ / "index.html", work_, {"tr.run", "a.report-link", "td.verdict", "h1", "b"}, 390);
    const auto rows = boxes(probe, "tr.run");
    ASSERT_EQ(rows.size(), 3u);
    for (std::size_t i = 1; i < rows.size(); ++i) EXPECT_GT(rows[i].top, rows[i - 1].top) << "rows in the given order";
    EXPECT_NE(rows[0].text.find("2026-11-03 08:00:00 UTC"), std::string::npos) << rows[0].text;
    const auto links = boxes(probe, "a.report-link");
    ASSERT_EQ(links.size(), 2u) << "a run without report.html has no link";
    EXPECT_EQ(links[0].href, "redis-holder-pause/20261102T090000Z-cccccc/report.html");
    const auto verdicts = boxes(probe, "td.verdict");
    ASSERT_EQ(verdicts.size(), 3u);
    EXPECT_EQ(verdicts[0].text, "no verdict");
    EXPECT_EQ(verdicts[1].cls, "verdict invalid");
    EXPECT_NE(verdicts[1].color, verdicts[2].color) << "invalid and valid read apart";
    EXPECT_TRUE(boxes(probe, "b").empty()) << "a scenario name is text, never markup";
    EXPECT_NE(rows[2].text.find("<b>odd</b>"), std::string::npos) << rows[2].text;
    EXPECT_LE(probe["sw"].get<double>(), 390) << "the page does not scroll sideways";
}
