// Integration tests of how long runs take, with the real lockcheck binary and
// redis-server: many workers start side by side and all of them work;
// --stop-on-decided ends an expected-invalid run once its expectation is met
// (and is off by default in `run`); `suite --repeat` reports a detection rate.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <sstream>

#include "tests/support/integration_helpers.hpp"

namespace fs = std::filesystem;
using namespace lockcheck::testing;

namespace {

nlohmann::json read_json(const fs::path& path) { return nlohmann::json::parse(read_file(path)); }

/// The process numbers that recorded at least one op in the run's history.
std::set<int> processes_with_ops(const fs::path& run_dir) {
    std::set<int> processes;
    std::istringstream lines(read_file(run_dir / "history.jsonl"));
    for (std::string line; std::getline(lines, line);) {
        const auto op = nlohmann::json::parse(line);
        if (op["process"].is_number_integer()) processes.insert(op["process"].get<int>());
    }
    return processes;
}

}  // namespace

TEST(WorkerStartup, FiftyWorkersStartTogetherAndEveryOneRecordsOps) {
    const auto run = run_lockcheck("fifty-workers", {"run", scenario("redis-quick-no-faults"), "--workers", "50",
                                                     "--time-limit", "3", "--ttl-ms", "1000"});
    EXPECT_EQ(run.exit_code, 0) << run.output;
    ASSERT_TRUE(run.results.is_object()) << run.output;
    EXPECT_EQ(run.results["run"]["workers_failed"], 0);
    const auto processes = processes_with_ops(run.run_dir);
    for (int p = 0; p < 50; ++p) EXPECT_TRUE(processes.count(p)) << "worker " << p << " recorded no op";
    EXPECT_GT(run.results["run"]["workers_ready_seconds"].get<double>(), 0.0);
    // The time limit counts from the first op: the workload had its 3 s
    // however long the workers took to start.
    EXPECT_GE(run.results["run"]["seconds"].get<double>(), 3.0);
    expect_nothing_left(run);
}

TEST(StopOnDecided, AnExpectedInvalidRunStopsOnceItsExpectationIsMet) {
    const auto run = run_lockcheck(
        "stop-on-decided", {"run", scenario("redis-quick-holder-pause"), "--time-limit", "40", "--stop-on-decided"});
    EXPECT_EQ(run.exit_code, 1) << run.output;
    ASSERT_TRUE(run.results.is_object()) << run.output;
    EXPECT_EQ(run.results["expectation"]["matched"], true) << run.results["expectation"].dump();
    const auto& early = run.results["run"]["stopped_early"];
    ASSERT_TRUE(early.is_object()) << run.results["run"].dump();
    EXPECT_NE(early["reason"].get<std::string>().find("overlap-lease-expired"), std::string::npos) << early.dump();
    EXPECT_LT(run.results["run"]["seconds"].get<double>(), 20.0) << "well before the 40 s time limit";
    EXPECT_NE(run.output.find("stopped early (--stop-on-decided)"), std::string::npos) << run.output;
    expect_nothing_left(run);
}

TEST(StopOnDecided, IsOffByDefaultInRun) {
    const auto run = run_lockcheck("full-length", {"run", scenario("redis-quick-holder-pause"), "--time-limit", "5"});
    ASSERT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.output;
    EXPECT_TRUE(run.results["run"]["stopped_early"].is_null()) << run.results["run"].dump();
    EXPECT_GE(run.results["run"]["seconds"].get<double>(), 5.0);
    expect_nothing_left(run);
}

TEST(SuiteRepeat, ReportsTheDetectionRateOfEachScenario) {
    const auto store = fresh_store("suite-repeat");
    auto child = start_lockcheck(store, {"suite", scenario("redis-quick-holder-pause"), "--repeat", "2"});
    const auto out = finish(*child, store);
    const auto suite_dir = fs::canonical(store / "suites" / "latest");
    const auto suite = read_json(suite_dir / "suite.json");
    ASSERT_EQ(suite["scenarios"].size(), 1u) << suite.dump(2);
    const auto& s = suite["scenarios"][0];
    EXPECT_EQ(suite["repeat"], 2);
    EXPECT_EQ(s["runs"], 2);
    ASSERT_EQ(s["each"].size(), 2u);
    EXPECT_NE(s["each"][0]["seed"], s["each"][1]["seed"]) << "each run draws its own seed";
    const int met = s["met"].get<int>();
    EXPECT_EQ(out.exit_code, met == 2 ? 0 : 1) << out.output;
    EXPECT_LE(s["interval95"][0].get<double>(), s["rate"].get<double>());
    EXPECT_GE(s["interval95"][1].get<double>(), s["rate"].get<double>());
    int violated = 0;
    for (const auto& run : s["each"]) {
        if (!run["first_violation_seconds"].is_null()) {
            ++violated;
            EXPECT_GT(run["first_violation_seconds"].get<double>(), 0.0);
        }
    }
    EXPECT_EQ(s["violated"], violated);
    if (violated > 0) {
        EXPECT_GT(s["median_first_violation_seconds"].get<double>(), 0.0);
    }
    const auto junit = read_file(suite_dir / "junit.xml");
    EXPECT_NE(junit.find("met " + std::to_string(met) + "/2"), std::string::npos) << junit;
    fs::remove_all(store);
}
