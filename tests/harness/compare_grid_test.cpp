#include <gtest/gtest.h>

#include "commands/compare/compare_grid.hpp"
#include "reports/compare_html.hpp"
#include "reports/compare_metrics.hpp"
#include "reports/results_json.hpp"

using namespace lockcheck;

TEST(CompareGrid, ParsesValuesAsJsonOrStrings) {
    const auto v = parse_vary("persistence=none,everysec,always");
    EXPECT_EQ(v.field, "persistence");
    ASSERT_EQ(v.values.size(), 3u);
    EXPECT_EQ(v.values[1], "everysec");
    const auto n = parse_vary("hold_ms=[100,400],[1500,2500]");
    ASSERT_EQ(n.values.size(), 2u);
    EXPECT_EQ(n.values[1], nlohmann::json({1500, 2500}));
    EXPECT_EQ(parse_vary("fencing=true,false").values[0], true);
    EXPECT_THROW(parse_vary("ttl_ms"), SpecError);
    EXPECT_THROW(parse_vary("ttl_ms=1,,2"), SpecError);
}

TEST(CompareGrid, ExpandsEveryCombinationFirstVaryingSlowest) {
    Spec base;
    const auto cells = expand_grid(base, {parse_vary("ttl_ms=500,1000"), parse_vary("fencing=false,true")});
    ASSERT_EQ(cells.size(), 4u);
    EXPECT_EQ(cells[0].label(), "ttl_ms=500 fencing=false");
    EXPECT_EQ(cells[1].label(), "ttl_ms=500 fencing=true");
    EXPECT_EQ(cells[2].spec.ttl_ms, 1000);
    EXPECT_TRUE(cells[3].spec.fencing);
    // fault_duration_ms was not set, so it follows each cell's lease
    EXPECT_EQ(cells[0].spec.fault_duration().min, 750);
    EXPECT_EQ(cells[2].spec.fault_duration().min, 1500);
}

TEST(CompareGrid, RejectsUnknownFieldsAndBadValuesBeforeRunning) {
    Spec base;
    EXPECT_THROW(expand_grid(base, {parse_vary("no_such_field=1,2")}), SpecError);
    EXPECT_THROW(expand_grid(base, {parse_vary("persistence=none,sometimes")}), SpecError);
    EXPECT_THROW(expand_grid(base, {parse_vary("workers=abc")}), SpecError);
    EXPECT_THROW(expand_grid(base, {parse_vary("seed=1,2")}), SpecError);
}

TEST(CompareMetrics, ReadsTheFiguresOfEachRunAndAveragesACell) {
    const nlohmann::json invalid = {
        {"valid", false},
        {"checkers",
         {{"mutual-exclusion",
           {{"violations_total", 3},
            {"counts_toward_verdict", true},
            {"stats", {{"within_lease", 1}, {"lease_expired", 2}}}}},
          {"resource", {{"violations_total", 2}, {"stats", {{"lost_updates", 2}}}}},
          {"linearizability",
           {{"violations_total", 9}, {"counts_toward_verdict", false}, {"stats", nlohmann::json::object()}}},
          {"liveness", {{"violations_total", 0}, {"stats", {{"acquires", {{"attempts", 10}, {"ok", 4}}}}}}}}}};
    const auto m = metrics_from_results(results_from_json(invalid));
    EXPECT_EQ(m.verdict, "invalid");
    EXPECT_EQ(m.violations, 5);  // the advisory checker does not count
    EXPECT_EQ(m.within_lease, 1);
    EXPECT_EQ(m.lease_expired, 2);
    EXPECT_EQ(m.lost_updates, 2);
    EXPECT_DOUBLE_EQ(m.acquire_success_rate, 0.4);
    const auto cell = summarize_cell(
        "x", {m, metrics_from_results(results_from_json({{"valid", true}})), metrics_from_results(std::nullopt)});
    EXPECT_EQ(cell.invalid_runs, 1);
    EXPECT_EQ(cell.failed_runs, 1);
    EXPECT_DOUBLE_EQ(cell.violations_per_run, 2.5);
    EXPECT_DOUBLE_EQ(cell.acquire_success_rate, 0.2);
    const auto html =
        render_compare_html({{"spec_name", "s"}, {"runs", 3}, {"seeds", {1, 2, 3}}, {"cells", {cell_to_json(cell)}}});
    EXPECT_NE(html.find("<svg id=\"compare-chart\""), std::string::npos);
    EXPECT_NE(html.find("<td>1/3</td><td>2.50</td>"), std::string::npos) << html;
}

TEST(CompareGrid, VariesFaultOptionsLikeAnyField) {
    Spec base;
    base.nemesis = {"kill-restart"};
    const auto cells = expand_grid(base, {parse_vary("restart_delay_ms=0,2xttl"), parse_vary("ttl_ms=500,1000")});
    ASSERT_EQ(cells.size(), 4u);
    EXPECT_EQ(cells[0].spec.fault_options["restart_delay_ms"], 0);
    EXPECT_EQ(cells[3].spec.fault_options["restart_delay_ms"], "2xttl");
    EXPECT_EQ(cells[3].label(), "restart_delay_ms=2xttl (2000 ms) ttl_ms=1000");
    EXPECT_THROW(expand_grid(base, {parse_vary("partition_mode=isolate-one,split-brain")}), SpecError);
}

TEST(CompareGrid, ALabelResolvesAMultipleOfTheLeaseToMilliseconds) {
    Spec base;
    base.nemesis = {"kill-restart"};
    base.topology = "redis-independent";
    base.recipe = "redlock";
    const auto cells = expand_grid(base, {parse_vary("ttl_ms=500,1000"), parse_vary("restart_delay_ms=0,2xttl")});
    ASSERT_EQ(cells.size(), 4u);
    EXPECT_EQ(cells[0].label(), "ttl_ms=500 restart_delay_ms=0");
    EXPECT_EQ(cells[1].label(), "ttl_ms=500 restart_delay_ms=2xttl (1000 ms)");
    EXPECT_EQ(cells[3].label(), "ttl_ms=1000 restart_delay_ms=2xttl (2000 ms)");
}

namespace {

std::size_t occurrences(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

RunMetrics run_with(std::int64_t within, std::int64_t expired, std::int64_t lost, const std::string& dir) {
    RunMetrics m;
    m.verdict = within + expired + lost > 0 ? "invalid" : "valid";
    m.within_lease = within;
    m.lease_expired = expired;
    m.lost_updates = lost;
    m.run_dir = dir;
    return m;
}

}  // namespace

TEST(CompareMetrics, KeepsEachRunsDirectoryRelativeToTheCompareDirectory) {
    const auto m =
        metrics_from_results(results_from_json({{"valid", true}}),
                             "/store/compare/x/cells/01/run-0/redis/20260101T000000Z-abc", "/store/compare/x");
    EXPECT_EQ(m.run_dir, "cells/01/run-0/redis/20260101T000000Z-abc");
    EXPECT_EQ(cell_to_json(summarize_cell("c", {m}))["runs"][0]["run_dir"], m.run_dir);
}

TEST(CompareHtml, LinksEveryRunShowsEachRunAsADotLabelsItsAxesAndSaysWhyACellIsEmpty) {
    const auto busy = summarize_cell(
        "fencing=false", {run_with(0, 3, 2, "cells/00/run-0/s/a"), run_with(0, 5, 1, "cells/00/run-1/s/b")});
    const auto quiet = summarize_cell(
        "fencing=true", {run_with(0, 0, 0, "cells/01/run-0/s/c"), run_with(0, 0, 0, "cells/01/run-1/s/d")});
    const auto broken = summarize_cell("ttl_ms=1", {RunMetrics{}, RunMetrics{}});
    const auto skipped = summarize_cell("ttl_ms=2", {});
    const auto html = render_compare_html(
        {{"spec_name", "s"},
         {"runs", 2},
         {"seeds", {1, 2}},
         {"cells", {cell_to_json(busy), cell_to_json(quiet), cell_to_json(broken), cell_to_json(skipped)}}});
    EXPECT_NE(html.find("<a class=\"run-link\" href=\"cells/00/run-0/s/a/report.html\">1: invalid</a>"),
              std::string::npos)
        << html;
    EXPECT_EQ(occurrences(html, "class=\"run-link\""), 4u) << "the two failed runs have no directory to link";
    EXPECT_EQ(occurrences(html, "<circle class=\"run-dot\""), 2u * 3u)
        << "3 figures for each run of the one cell with bars";
    EXPECT_EQ(occurrences(html, "class=\"axis-title\""), 2u);
    EXPECT_NE(html.find("#2 has no bars: no overlap and no lost update in 2 runs"), std::string::npos);
    EXPECT_NE(html.find("#3 has no bars: no verdict: 2 of 2 runs failed"), std::string::npos);
    EXPECT_NE(html.find("#4 has no bars: not run: the compare was stopped before this cell"), std::string::npos);
    EXPECT_NE(html.find("<meta name=\"viewport\""), std::string::npos);
    EXPECT_NE(html.find("viewBox=\"0 0 554 300\" width=\"554\""), std::string::npos) << "a slot of 120 px per cell";
}
