// The clock launcher given programs whose clock it cannot move (issue 41,
// defect 11): a set-user-ID program (the loader ignores LD_PRELOAD for it
// and its exec cannot be traced) and a `#!` script whose interpreter is
// statically linked. Each exits 126 with one line saying why, as the
// launcher promises, instead of running with the real clock and exit 0.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/scratch_dir.hpp"

namespace {

struct Launched {
    int exit_code = -1;
    std::string err;
};

/// `lockcheck-clock-launch -- PROGRAM` with a clock file named, its exit code and stderr.
Launched launch(const std::filesystem::path& dir, const std::filesystem::path& program) {
    const auto err = dir / "stderr.txt";
    const std::string command = "LOCKCHECK_CLOCK_OFFSET_FILE='" + (dir / "clock").string() + "' '" CLOCK_LAUNCHER
                                "' -- '" + program.string() + "' >/dev/null 2>'" + err.string() + "'";
    const int status = std::system(command.c_str());
    std::ifstream in(err);
    Launched launched{WIFEXITED(status) ? WEXITSTATUS(status) : -1, {}};
    std::getline(in, launched.err, '\0');
    return launched;
}

}  // namespace

TEST(ClockLauncherAdversarial, ASetuidProgramIsRefusedWith126) {
    const lockcheck::testing::ScratchDir dir("launcher-setuid");
    const auto program = dir.path() / "setuid_reader";
    std::filesystem::copy_file(STATIC_CLOCK_READER, program);
    ASSERT_EQ(::chmod(program.c_str(), 04755), 0);
    const auto launched = launch(dir.path(), program);
    EXPECT_EQ(launched.exit_code, 126) << launched.err;
    EXPECT_NE(launched.err.find("set-user-ID or set-group-ID"), std::string::npos) << launched.err;
    EXPECT_EQ(std::count(launched.err.begin(), launched.err.end(), '\n'), 1) << launched.err;
}

TEST(ClockLauncherAdversarial, AScriptWithAStaticInterpreterIsRefusedWith126) {
    const lockcheck::testing::ScratchDir dir("launcher-static-interpreter");
    const auto script = dir.path() / "script";
    std::ofstream(script) << "#!" STATIC_CLOCK_READER "\n";
    ASSERT_EQ(::chmod(script.c_str(), 0755), 0);
    const auto launched = launch(dir.path(), script);
    EXPECT_EQ(launched.exit_code, 126) << launched.err;
    EXPECT_NE(launched.err.find("interpreter is statically linked"), std::string::npos) << launched.err;

    const auto shell_script = dir.path() / "shell_script";  // a dynamic interpreter: LD_PRELOAD reaches it
    std::ofstream(shell_script) << "#!/bin/sh\nexit 0\n";
    ASSERT_EQ(::chmod(shell_script.c_str(), 0755), 0);
    EXPECT_EQ(launch(dir.path(), shell_script).exit_code, 0);
}
