// run_spec's outcome (run/run.hpp) when the run fails before any server
// starts: the failure's code and one line, and nothing that was not made.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "run/run.hpp"
#include "tests/support/scratch_dir.hpp"

using namespace lockcheck;
using lockcheck::testing::ScratchDir;

namespace {

struct Failed {
    RunOutcome outcome;
    std::string err;
};

Failed run_failing(const Spec& spec, const std::filesystem::path& store) {
    RunOptions options;
    options.store = store;
    ::testing::internal::CaptureStdout();
    ::testing::internal::CaptureStderr();
    Failed failed{run_spec(spec, options), ::testing::internal::GetCapturedStderr()};
    ::testing::internal::GetCapturedStdout();
    return failed;
}

}  // namespace

TEST(RunOutcome, ABadSpecIsBadInputInOneLineWithNoRunDirectory) {
    const ScratchDir scratch("run-outcome");
    const auto& dir = scratch.path();
    Spec spec;
    spec.workers = 0;
    const auto [outcome, err] = run_failing(spec, dir / "store");
    EXPECT_EQ(outcome.exit_code, exit_code::kBadInput);
    EXPECT_EQ(err.rfind("lockcheck: error: ", 0), 0u) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_FALSE(outcome.verdict);
    EXPECT_TRUE(outcome.run_dir.empty());
    EXPECT_TRUE(outcome.results.is_null());
    EXPECT_FALSE(std::filesystem::exists(dir / "store")) << "nothing runs before the spec is valid";
}

TEST(RunOutcome, AStoreThatCannotBeMadeIsAHarnessError) {
    const ScratchDir scratch("run-outcome");
    const auto& dir = scratch.path();
    std::ofstream(dir / "file") << "not a directory";
    const auto [outcome, err] = run_failing(Spec{}, dir / "file" / "store");
    EXPECT_EQ(outcome.exit_code, exit_code::kHarnessError);
    EXPECT_EQ(err.rfind("lockcheck: error: cannot create run directory ", 0), 0u) << err;
    EXPECT_FALSE(outcome.verdict);
    EXPECT_TRUE(outcome.run_dir.empty());
    EXPECT_GE(outcome.wall_seconds, 0);
}
