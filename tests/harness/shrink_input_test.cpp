// `lockcheck shrink` given what it cannot shrink: one line and exit 254,
// before anything runs; and what it takes from a failing run.
#include <gtest/gtest.h>

#include <fstream>

#include "commands/shrink/shrink_command.hpp"
#include "commands/shrink/shrink_input.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/scratch_dir.hpp"

using namespace lockcheck;
using lockcheck::testing::run_cli;
using lockcheck::testing::ScratchDir;

namespace {

void write(const std::filesystem::path& path, const std::string& text) { std::ofstream(path) << text; }

/// A run directory of redis-holder-pause that failed with overlap-lease-expired:
/// two holders at once, a pause-holder fault started at 1 s (id 1) and one at 5 s (id 2).
void write_failing_run(const std::filesystem::path& dir) {
    write(dir / "spec.json", R"({"name": "redis-holder-pause", "workers": 2, "seed": 7,
                                 "expect": {"valid": false, "has": ["overlap-within-lease"]}})");
    write(dir / "nemesis-schedule.json",
          R"([{"id": 1, "kind": "pause-holder", "at_ms": 1000, "duration_ms": 1500, "target_delay_ms": 20, "pick": 3},
              {"id": 2, "fault": "pause-holder", "at_ms": 5000, "duration_ms": 1500}])");
    write(dir / "results.json", R"({"valid": false, "checkers": {
        "mutual-exclusion": {"valid": false, "violations": [{"kind": "overlap-lease-expired"}]},
        "advisory": {"valid": false, "counts_toward_verdict": false, "violations": [{"kind": "late-grant"}]}}})");
    write(dir / "history.jsonl",
          R"({"index":0,"time":1000000000,"process":"nemesis","type":"invoke","f":"start-fault","value":{"fault":"pause-holder","id":1}}
{"index":1,"time":1000000000,"process":"nemesis","type":"info","f":"start-fault","value":{"fault":"pause-holder","id":1,"targets":["worker 0"]}}
)");
}

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
    write(scratch.path() / "spec.json", "{}");
    EXPECT_NE(shrink_error({scratch.path().string()}).find("has no history.jsonl"), std::string::npos);
    write(scratch.path() / "history.jsonl", "");
    EXPECT_NE(shrink_error({scratch.path().string()}).find("has no readable results.json"), std::string::npos);
}

TEST(ShrinkInput, RefusesARunThatDidNotFail) {
    ScratchDir scratch("shrink-valid");
    write_failing_run(scratch.path());
    write(scratch.path() / "results.json", R"({"valid": true, "checkers": {}})");
    EXPECT_NE(shrink_error({scratch.path().string()}).find("did not fail (its verdict is true)"), std::string::npos);
    write(scratch.path() / "results.json", R"({"valid": "unknown", "checkers": {}})");
    EXPECT_NE(shrink_error({scratch.path().string()}).find("did not fail"), std::string::npos);
    write(scratch.path() / "results.json", R"({"valid": false, "checkers": {}})");
    EXPECT_NE(shrink_error({scratch.path().string()}).find("lists no violation"), std::string::npos);
}

TEST(ShrinkInput, RefusesResultsThatDoNotReadNamingTheField) {
    ScratchDir scratch("shrink-broken-results");
    write_failing_run(scratch.path());
    write(scratch.path() / "results.json",
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
