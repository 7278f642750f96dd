// compare.html and the store's index.html rendered in headless Chromium
// (tests/reports/browser_probe.hpp): links, every run drawn, escaping, and
// no sideways scrolling on a narrow screen.
#include <gtest/gtest.h>

#include <fstream>
#include <optional>

#include "reports/compare_html.hpp"
#include "reports/compare_metrics.hpp"
#include "reports/store_index.hpp"
#include "tests/reports/browser_probe.hpp"

using namespace lockcheck;
using namespace lockcheck::testing;
using nlohmann::json;

using PagesInBrowser = BrowserPageTest;

TEST_F(PagesInBrowser, CompareLinksItsRunsShowsEveryRunAndFitsANarrowScreen) {  // item 11
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

TEST_F(PagesInBrowser, StoreIndexListsEveryRunNewestFirstWithItsVerdictAndFitsANarrowScreen) {  // issue 15, item 17
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
