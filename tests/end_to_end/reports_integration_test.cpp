// Integration tests of the commands around runs, with the real lockcheck
// binary and redis-server: `suite` on the tiny "quick" label and on a
// directory whose expectation is wrong, `run --replay`, and `compare`.
// Each leaves report.html and junit.xml in every run directory.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tests/support/integration_helpers.hpp"

namespace fs = std::filesystem;
using namespace lockcheck::testing;

namespace {

nlohmann::json read_json(const fs::path& path) { return nlohmann::json::parse(read_file(path)); }

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

RunOutcome run_in(const fs::path& store, std::vector<std::string> args) {
    auto child = start_lockcheck(store, std::move(args));
    return finish(*child, store);
}

void expect_run_reports(const fs::path& run_dir) {
    EXPECT_TRUE(fs::exists(run_dir / "report.html")) << run_dir;
    const auto junit = read_file(run_dir / "junit.xml");
    EXPECT_NE(junit.find("<testcase name=\"mutual-exclusion\""), std::string::npos) << run_dir;
}

}  // namespace

TEST(SuiteCommand, QuickLabelRunsItsScenariosAndMeetsTheirExpectations) {
    const auto store = fresh_store("suite-quick");
    const auto out = run_in(store, {"suite", "quick"});
    EXPECT_EQ(out.exit_code, 0) << out.output;
    const auto suite_dir = fs::canonical(store / "suites" / "latest");
    const auto suite = read_json(suite_dir / "suite.json");
    ASSERT_EQ(suite["scenarios"].size(), 2u) << suite.dump(2);  // redis-quick-holder-pause, redis-quick-no-faults
    EXPECT_EQ(suite["failed"], 0);
    for (const auto& s : suite["scenarios"]) {
        EXPECT_TRUE(s["matched"].get<bool>()) << s.dump();
        expect_run_reports(s["run_dir"].get<std::string>());
        const auto junit = read_file(fs::path(s["run_dir"].get<std::string>()) / "junit.xml");
        EXPECT_NE(junit.find("<testcase name=\"expectation\""), std::string::npos) << junit;
        EXPECT_EQ(count(junit, "<failure"), 0u)
            << "a met expectation is a passing test, even of an invalid run: " << junit;
        const auto name = fs::path(s["run_dir"].get<std::string>()).filename().string();
        EXPECT_TRUE(processes_of_run(name.substr(name.rfind('-') + 1)).empty());
    }
    const auto junit = read_file(suite_dir / "junit.xml");
    EXPECT_EQ(count(junit, "<testcase "), 2u);
    EXPECT_EQ(count(junit, "<failure"), 0u);
    EXPECT_NE(out.output.find("2 scenarios: 2 met their expectation, 0 did not, in "), std::string::npos) << out.output;
    fs::remove_all(store);
}

TEST(SuiteCommand, AVerdictThatDiffersFromExpectFailsTheSuite) {
    const auto store = fresh_store("suite-differs");
    const auto dir = store / "specs";
    fs::create_directories(dir);
    std::ofstream(dir / "wrong.json") << R"({"name": "wrongly-expected", "time_limit_s": 2, "nemesis": [],
                                             "workers": 2, "expect": {"valid": false}})";
    const auto out = run_in(store, {"suite", dir.string()});
    EXPECT_EQ(out.exit_code, 1) << out.output;
    const auto suite_dir = fs::canonical(store / "suites" / "latest");
    const auto suite = read_json(suite_dir / "suite.json");
    ASSERT_EQ(suite["scenarios"].size(), 1u);
    EXPECT_EQ(suite["scenarios"][0]["verdict"], "valid");
    EXPECT_FALSE(suite["scenarios"][0]["matched"].get<bool>());
    const auto junit = read_file(suite_dir / "junit.xml");
    EXPECT_NE(junit.find("<failure message=\"expected invalid, got valid"), std::string::npos) << junit;
    EXPECT_EQ(run_in(store, {"suite", "no-such-label"}).exit_code, 254);
    fs::remove_all(store);
}

TEST(SuiteCommand, JobsRunScenariosSideBySideAndKeepTheSuitesOrder) {
    const auto store = fresh_store("suite-jobs");
    const auto dir = store / "specs";
    fs::create_directories(dir);
    // a-long ends last, c-wrong does not meet its expectation.
    std::ofstream(dir / "a-long.json") << R"({"name": "a-long", "time_limit_s": 6, "nemesis": [], "workers": 2})";
    std::ofstream(dir / "b-short.json") << R"({"name": "b-short", "time_limit_s": 1, "nemesis": [], "workers": 2})";
    std::ofstream(dir / "c-wrong.json") << R"({"name": "c-wrong", "time_limit_s": 1, "nemesis": [], "workers": 2,
                                               "expect": {"valid": false}})";
    const auto out = run_in(store, {"suite", dir.string(), "--jobs", "3"});
    EXPECT_EQ(out.exit_code, 1) << out.output;
    const auto suite_dir = fs::canonical(store / "suites" / "latest");
    const auto suite = read_json(suite_dir / "suite.json");
    EXPECT_EQ(suite["jobs"], 3);
    ASSERT_EQ(suite["scenarios"].size(), 3u) << suite.dump(2);
    // Side by side, the suite lasts about as long as its longest run, less than the sum of the runs.
    EXPECT_LT(suite["wall_seconds"].get<double>(), suite["seconds"].get<double>()) << suite.dump(2);
    const std::vector<std::pair<std::string, bool>> expected{{"a-long", true}, {"b-short", true}, {"c-wrong", false}};
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const auto& row = suite["scenarios"][i];
        EXPECT_EQ(row["name"], expected[i].first) << "suite.json in the suite's order, not the order runs ended";
        EXPECT_EQ(row["verdict"], "valid") << row.dump();
        EXPECT_EQ(row["matched"].get<bool>(), expected[i].second) << row.dump();
        EXPECT_TRUE(fs::exists(suite_dir / "runs" / expected[i].first / "console.log")) << expected[i].first;
        expect_run_reports(row["run_dir"].get<std::string>());
    }
    const auto junit = read_file(suite_dir / "junit.xml");
    EXPECT_LT(junit.find("name=\"a-long\""), junit.find("name=\"b-short\"")) << junit;
    EXPECT_LT(junit.find("name=\"b-short\""), junit.find("name=\"c-wrong\"")) << junit;
    const auto table = out.output.substr(out.output.rfind("\nscenario "));
    EXPECT_LT(table.find("a-long"), table.find("b-short")) << table;
    EXPECT_LT(table.find("b-short"), table.find("c-wrong")) << table;

    const auto shard = run_in(store, {"suite", dir.string(), "--shard", "2/3"});
    EXPECT_EQ(shard.exit_code, 0) << shard.output;
    const auto sharded = read_json(fs::canonical(store / "suites" / "latest") / "suite.json");
    ASSERT_EQ(sharded["scenarios"].size(), 1u) << sharded.dump(2);
    EXPECT_EQ(sharded["scenarios"][0]["name"], "b-short");
    EXPECT_EQ(sharded["shard"], "2/3");
    fs::remove_all(store);
}

TEST(ReplayCommand, RerunsTheStoredSpecWithTheSameSeedAndFaultSchedule) {
    const auto store = fresh_store("replay");
    const auto first = run_in(store, {"run", scenario("redis-quick-holder-pause"), "--time-limit", "4"});
    ASSERT_TRUE(first.exit_code == 0 || first.exit_code == 1) << first.output;
    expect_run_reports(first.run_dir);
    const auto second = run_in(store, {"run", "--replay", first.run_dir.string()});
    ASSERT_TRUE(second.exit_code == 0 || second.exit_code == 1) << second.output;
    ASSERT_NE(second.run_dir, first.run_dir);
    EXPECT_EQ(second.results["run"]["seed"], first.results["run"]["seed"]);
    const auto schedule = read_json(first.run_dir / "nemesis-schedule.json");
    EXPECT_FALSE(schedule.empty());
    EXPECT_EQ(read_json(second.run_dir / "nemesis-schedule.json"), schedule);
    expect_nothing_left(second);
    fs::remove_all(store);
}

// Regression (issue 15, items 15 and 17): `--nemesis none` on a scenario that
// expects overlaps printed "NOT met"; the run, by its name from another
// directory, says the expectation does not apply and exits with its verdict;
// `lockcheck index` then lists it with a link to its report.
TEST(RunCommand, WithoutTheScenariosFaultsItsExpectationDoesNotApplyAndTheIndexListsTheRun) {
    const auto store = fs::absolute(fresh_store("not-applicable"));
    const auto run = run_in(store, {"run", "redis-quick-holder-pause", "--nemesis", "none", "--time-limit", "3"});
    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_NE(run.output.find("scenario expectation: does not apply: the scenario's expectation was stated for "
                              "nemesis pause-holder"),
              std::string::npos)
        << run.output;
    EXPECT_EQ(run.output.find("NOT met"), std::string::npos) << run.output;
    EXPECT_EQ(run.results["expectation"]["applies"], false);
    EXPECT_EQ(run.output.find("slowest recovery"), std::string::npos) << "no fault, no recovery: " << run.output;
    expect_nothing_left(run);

    const auto index = run_in(store, {"index"});
    EXPECT_EQ(index.exit_code, 0) << index.output;
    const auto html = read_file(store / "index.html");
    const auto relative = fs::relative(run.run_dir, fs::canonical(store)).generic_string();
    EXPECT_NE(html.find("href=\"" + relative + "/report.html\""), std::string::npos) << relative;
    EXPECT_NE(html.find("does not apply"), std::string::npos);
    fs::remove_all(store);
}

TEST(CompareCommand, RunsTheGridWithTheSameSeedsInEveryCell) {
    const auto store = fresh_store("compare");
    const auto out = run_in(store, {"compare", scenario("redis-quick-no-faults"), "--vary", "fencing=false,true",
                                    "--runs", "1", "--time-limit", "2", "--seed", "7"});
    EXPECT_EQ(out.exit_code, 0) << out.output;
    const auto dir = fs::canonical(store / "compare" / "latest");
    const auto compare = read_json(dir / "compare.json");
    ASSERT_EQ(compare["cells"].size(), 2u);
    EXPECT_EQ(compare["seeds"], nlohmann::json({7}));
    EXPECT_EQ(compare["cells"][1]["settings"]["fencing"], true);
    for (const auto& cell : compare["cells"]) {
        EXPECT_EQ(cell["runs"][0]["verdict"], "valid") << cell.dump();
        EXPECT_GT(cell["acquire_success_rate"].get<double>(), 0);
    }
    EXPECT_NE(read_file(dir / "compare.html").find("<svg id=\"compare-chart\""), std::string::npos);
    EXPECT_NE(out.output.find("fencing=true"), std::string::npos);
    fs::remove_all(store);
}
