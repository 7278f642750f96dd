// set_process_title writes only to main's own argv (the kernel's command-line
// area): an argv a caller made up is left alone. That it renames a real
// process is checked end to end by the ForkedWorkers test (`ps` of a run).
#include "clusters/process_title.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace lockcheck;

TEST(ProcessTitle, LeavesAnArgvThatIsNotMainsAlone) {
    std::string program = "lockcheck";
    std::string subcommand = "worker";
    const char* argv[] = {program.c_str(), subcommand.c_str(), nullptr};
    EXPECT_FALSE(set_process_title(argv, {"renamed", "x"}));
    EXPECT_EQ(program, "lockcheck");
    EXPECT_EQ(subcommand, "worker");
    EXPECT_FALSE(set_process_title(nullptr, {"renamed"}));
}
