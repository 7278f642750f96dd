#include <gtest/gtest.h>

#include "host/system_command.hpp"

using namespace lockcheck;

TEST(Command, CapturesStdoutAndStderr) {
    // Leftover checks and cleanup read command output: an empty capture would make them blind.
    const auto result = run_command({"sh", "-c", "echo out; echo err >&2; exit 3"});
    EXPECT_EQ(result.exit_code, 3);
    EXPECT_NE(result.output.find("out"), std::string::npos);
    EXPECT_NE(result.output.find("err"), std::string::npos);
}

TEST(Command, RunCheckedNamesTheFailingCommand) {
    try {
        run_checked({"sh", "-c", "echo 'no such device' >&2; exit 1"});
        FAIL();
    } catch (const CommandError& e) {
        EXPECT_STREQ(e.what(), "`sh -c echo 'no such device' >&2; exit 1` failed: no such device");
    }
}

TEST(Command, MissingProgramIsOneLine) { EXPECT_THROW(run_command({"lockcheck-no-such-program"}), CommandError); }
