// `lockcheck shrink` given what it cannot shrink: one line and exit 254,
// before anything runs; and what it takes from a failing run.
#include <gtest/gtest.h>

#include <fstream>

#include "commands/shrink/shrink_command.hpp"
#include "commands/shrink/shrink_input.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tests/support/shrink_fixtures.hpp"

using namespace lockcheck;
using lockcheck::testing::run_cli;
using lockcheck::testing::ScratchDir;

namespace {

using lockcheck::testing::write_failing_run;
using lockcheck::testing::write_text;

std::string shrink_error(const std::vector<std::string>& args) {
    std::vector<std::string> all{"shrink"};
    all.insert(all.end(), args.begin(), args.end());
    const auto ran = run_cli(all);
    EXPECT_EQ(ran.exit_code, 254) << ran.out << ran.err;
    EXPECT_EQ(std::count(ran.err.begin(), ran.err.end(), '\n'), 1) << ran.err;
    EXPECT_EQ(ran.out, "") << "nothing runs";
    return ran.err;
}

}  // namespace

TEST(ShrinkInput, RefusesWhatIsNoRunDirectory) {
    ScratchDir scratch("shrink-input");
    EXPECT_NE(shrink_error({(scratch.path() / "missing").string()}).find("is not a directory"), std::string::npos);
    EXPECT_NE(shrink_error({scratch.path().string()}).find("is no run directory (no spec.json)"), std::string::npos);
    write_text(scratch.path() / "spec.json", "{}");
    EXPECT_NE(shrink_error({scratch.path().string()}).find("has no history.jsonl"), std::string::npos);
    write_text(scratch.path() / "history.jsonl", "");
    EXPECT_NE(shrink_error({scratch.path().string()}).find("has no readable results.json"), std::string::npos);
}

TEST(ShrinkInput, RefusesARunThatDidNotFail) {
    ScratchDir scratch("shrink-valid");
    write_failing_run(scratch.path());
    write_text(scratch.path() / "results.json", R"({"valid": true, "checkers": {}})");
    EXPECT_NE(shrink_error({scratch.path().string()}).find("did not fail (its verdict is true)"), std::string::npos);
    write_text(scratch.path() / "results.json", R"({"valid": "unknown", "checkers": {}})");
    EXPECT_NE(shrink_error({scratch.path().string()}).find("did not fail"), std::string::npos);
    write_text(scratch.path() / "results.json", R"({"valid": false, "checkers": {}})");
    EXPECT_NE(shrink_error({scratch.path().string()}).find("lists no violation"), std::string::npos);
}

TEST(ShrinkInput, RefusesResultsThatDoNotReadNamingTheField) {
    ScratchDir scratch("shrink-broken-results");
    write_failing_run(scratch.path());
    write_text(scratch.path() / "results.json",
          R"({"valid": false, "checkers": {"mutual-exclusion": {"violations": "two"}}})");
    EXPECT_NE(shrink_error({scratch.path().string()})
                  .find("shrink: " + (std::filesystem::canonical(scratch.path()) / "results.json").string() +
                        ": checkers.mutual-exclusion.violations is a string, not an array"),
              std::string::npos);
}

TEST(ShrinkInput, RefusesARunWithoutASchedule) {
    ScratchDir scratch("shrink-no-schedule");
    write_failing_run(scratch.path());
    std::filesystem::remove(scratch.path() / "nemesis-schedule.json");
    EXPECT_NE(shrink_error({scratch.path().string()}).find("has no nemesis-schedule.json"), std::string::npos);
}

TEST(ShrinkInput, RefusesBadFlags) {
    ScratchDir scratch("shrink-flags");
    write_failing_run(scratch.path());
    EXPECT_NE(shrink_error({scratch.path().string(), "--budget", "ten"}).find("--budget must be"), std::string::npos);
    EXPECT_NE(shrink_error({scratch.path().string(), "--budget", "0m"}).find("--budget must be"), std::string::npos);
    shrink_error({scratch.path().string(), "--runs", "0"});
    EXPECT_EQ(parse_budget("90"), std::chrono::seconds(90));
    EXPECT_EQ(parse_budget("10m"), std::chrono::seconds(600));
    EXPECT_EQ(parse_budget("1h"), std::chrono::seconds(3600));
}

TEST(ShrinkInput, ReadsTheKindTheScheduleAndTheEventsStartedBeforeTheFirstViolation) {
    ScratchDir scratch("shrink-read");
    write_failing_run(scratch.path());
    const ShrinkInput in = read_shrink_input(scratch.path());
    EXPECT_EQ(in.kind, "overlap-lease-expired") << "a kind of a checker that counts, not the advisory one";
    ASSERT_EQ(in.schedule.size(), 2u);
    EXPECT_EQ(in.schedule[0].kind, "pause-holder") << "the old field name 'kind' reads too";
    EXPECT_EQ(in.schedule[0].pick, 3u);
    EXPECT_EQ(in.spec.workers, 2);
    EXPECT_EQ(in.started_before_violation, std::set<int>{1});
}

TEST(ShrinkInput, KeepsTheExpectedKindWhenTheRunHasSeveral) {
    EXPECT_EQ(kind_to_keep({"lost-update", "overlap-within-lease"}, {"overlap-within-lease"}), "overlap-within-lease");
    EXPECT_EQ(kind_to_keep({"lost-update", "overlap-within-lease"}, {}), "lost-update");
}
