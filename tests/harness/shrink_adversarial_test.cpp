// `lockcheck shrink` never reports success for what it could not test
// (issue 41, defect 3): a candidate whose run could not run (exit 255, as
// when a relative client path does not resolve from another directory) is an
// error naming the run's own error line, not "did not reproduce"; and a
// result whose fresh runs do not reproduce the violation exits 2, not 0.
// The child runs are a stand-in for `lockcheck run` (RunOptions::self_exe),
// a shell script that exits as a real run would.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include "commands/shrink/shrink_command.hpp"
#include "run/exit_codes.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tests/support/shrink_fixtures.hpp"

using namespace lockcheck;
using lockcheck::testing::ScratchDir;
using lockcheck::testing::write_failing_run;
using lockcheck::testing::write_text;

namespace {

/// A stand-in for `lockcheck run SPEC --store STORE ...` running `body` (sh).
std::filesystem::path fake_lockcheck(const std::filesystem::path& dir, const std::string& body) {
    const auto path = dir / "fake-lockcheck";
    write_text(path, "#!/bin/sh\nstore=\"$4\"\n" + body);
    ::chmod(path.c_str(), 0755);
    return path;
}

RunOptions options_with(const std::filesystem::path& self_exe, const std::filesystem::path& store) {
    RunOptions options;
    options.self_exe = self_exe;
    options.store = store;
    return options;
}

}  // namespace

TEST(ShrinkAdversarial, ACandidateThatCouldNotRunIsAnErrorWithItsReason) {
    ScratchDir scratch("shrink-unrunnable");
    const auto run_dir = scratch.path() / "failed-run";
    std::filesystem::create_directories(run_dir);
    write_failing_run(run_dir);
    const auto exe = fake_lockcheck(
        scratch.path(), "echo \"lockcheck: error: client command 'clients/lock' not found\" >&2\nexit 255\n");
    ShrinkOptions shrink{run_dir, "60s", 1};
    try {
        const int code = shrink_command(shrink, options_with(exe, scratch.path() / "store"));
        FAIL() << "shrink exited " << code << " although no candidate could run";
    } catch (const HarnessError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("could not run"), std::string::npos) << what;
        EXPECT_NE(what.find("exited 255"), std::string::npos) << what;
        EXPECT_NE(what.find("client command 'clients/lock' not found"), std::string::npos) << what;
    }
}

TEST(ShrinkAdversarial, AResultThatDoesNotReproduceIsNoSuccess) {
    ScratchDir scratch("shrink-not-reproduced");
    const auto run_dir = scratch.path() / "failed-run";
    std::filesystem::create_directories(run_dir);
    write_failing_run(run_dir);
    // Every run completes and is valid: nothing reproduces the overlap.
    const auto exe = fake_lockcheck(scratch.path(),
                                    "dir=$(mktemp -d \"$store/run.XXXXXX\")\n"
                                    "echo '{\"valid\": true, \"checkers\": {}}' > \"$dir/results.json\"\n"
                                    "ln -sfn \"$dir\" \"$store/latest\"\nexit 0\n");
    ShrinkOptions shrink{run_dir, "60s", 1};
    EXPECT_EQ(shrink_command(shrink, options_with(exe, scratch.path() / "store")), exit_code::kUnknown);
}
