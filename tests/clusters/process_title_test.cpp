// ProcessTitle writes only to main's own argv (the kernel's command-line
// area): an argv a caller made up is left alone. That it renames a real
// process is checked by the fork server's test (a forked worker renames itself
// with the title its server found) and end to end by the ForkedWorkers test
// (`ps` of a run).
#include "host/process_title.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace lockcheck;

TEST(ProcessTitle, LeavesAnArgvThatIsNotMainsAlone) {
    std::string program = "lockcheck";
    std::string subcommand = "worker";
    const char* argv[] = {program.c_str(), subcommand.c_str(), nullptr};
    EXPECT_FALSE(ProcessTitle(argv).set({"renamed", "x"}));
    EXPECT_EQ(program, "lockcheck");
    EXPECT_EQ(subcommand, "worker");
    EXPECT_FALSE(ProcessTitle(nullptr).set({"renamed"}));
}
