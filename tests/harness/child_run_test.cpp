// suite --jobs: how a run in a child process is started, and what its run
// directory says of it.
#include "run/child_run.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "tests/support/scratch_dir.hpp"

namespace lockcheck {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& file, const nlohmann::json& value) { std::ofstream(file) << value.dump(); }

TEST(ChildRun, TheChildIsARunOfTheSpecIntoTheScenariosStore) {
    RunOptions options;
    options.self_exe = "/usr/bin/lockcheck";
    options.store = "/tmp/s/runs/redis-no-faults";
    options.stop_on_decided = true;
    EXPECT_EQ(child_run_argv({"scenarios/redis-no-faults.json", 42, "console.log"}, options),
              (std::vector<std::string>{"/usr/bin/lockcheck", "run", "scenarios/redis-no-faults.json", "--store",
                                        "/tmp/s/runs/redis-no-faults", "--seed", "42", "--stop-on-decided"}));
    options.stop_on_decided = false;
    EXPECT_EQ(child_run_argv({"x.json", std::nullopt, "console.log"}, options),
              (std::vector<std::string>{"/usr/bin/lockcheck", "run", "x.json", "--store", "/tmp/s/runs/redis-no-faults",
                                        "--no-stop-on-decided"}));
}

TEST(ChildRun, TheOutcomeIsReadFromResultsJson) {
    testing::ScratchDir dir("child-run");
    write(dir.path() / "results.json", {{"valid", false},
                                        {"run", {{"interrupted", false}, {"seed", 7}}},
                                        {"expectation", {{"matched", false}, {"mismatches", {"expected valid"}}}}});
    const RunOutcome outcome = outcome_from_run_directory(dir.path(), 1, 2.5);
    EXPECT_EQ(outcome.exit_code, 1);
    EXPECT_EQ(outcome.wall_seconds, 2.5);
    EXPECT_EQ(outcome.run_dir, dir.path());
    ASSERT_TRUE(outcome.verdict);
    EXPECT_EQ(*outcome.verdict, Validity::Invalid);
    EXPECT_FALSE(outcome.interrupted);
    ASSERT_TRUE(outcome.expectation);
    EXPECT_FALSE(outcome.expectation->matched);
    EXPECT_EQ(outcome.expectation->mismatches, std::vector<std::string>{"expected valid"});
    EXPECT_EQ(outcome.results["run"]["seed"], 7);
}

TEST(ChildRun, UnknownVerdictsAndInterruptionsComeBackToo) {
    testing::ScratchDir dir("child-run");
    write(dir.path() / "results.json", {{"valid", "unknown"}, {"run", {{"interrupted", true}}}});
    const RunOutcome outcome = outcome_from_run_directory(dir.path(), 2, 1);
    ASSERT_TRUE(outcome.verdict);
    EXPECT_EQ(*outcome.verdict, Validity::Unknown);
    EXPECT_TRUE(outcome.interrupted);
    EXPECT_FALSE(outcome.expectation) << "a spec without expect has none";
}

TEST(ChildRun, NoRunDirectoryOrNoResultsIsNoVerdict) {
    const RunOutcome none = outcome_from_run_directory({}, 254, 0.1);
    EXPECT_EQ(none.exit_code, 254);
    EXPECT_FALSE(none.verdict);
    EXPECT_TRUE(none.run_dir.empty());
    testing::ScratchDir dir("child-run");
    const RunOutcome empty = outcome_from_run_directory(dir.path(), 255, 0.1);
    EXPECT_FALSE(empty.verdict);
    EXPECT_TRUE(empty.results.is_null());
}

}  // namespace
}  // namespace lockcheck
