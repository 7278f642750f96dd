// A client command a user writes for the shell, started through the clock
// launcher under a client clock fault (issue 41, defect 4): `exec PROGRAM`
// runs PROGRAM (exec is the shell's, not a program the launcher can start),
// and a command that begins with another shell builtin keeps the shell.
#include <gtest/gtest.h>

#include "workers/plain_words_client.hpp"
#include "workers/worker_launch.hpp"

using namespace lockcheck;

TEST(PlainWordsAdversarial, ALeadingExecIsDropped) {
    EXPECT_EQ(plain_command_words("exec /usr/bin/python3 examples/python/redis_lock_safe.py"),
              (std::vector<std::string>{"/usr/bin/python3", "examples/python/redis_lock_safe.py"}));
    EXPECT_EQ(plain_command_words("exec exec ./client"), (std::vector<std::string>{"./client"}));
    EXPECT_FALSE(plain_command_words("exec"));
}

TEST(PlainWordsAdversarial, AShellBuiltinFirstKeepsTheShell) {
    for (const char* shell : {"cd clients", "export X", "true", "eval ./client", ". ./env", "exec cd d", "time ./c"})
        EXPECT_FALSE(plain_command_words(shell)) << shell;
    EXPECT_TRUE(plain_command_words("./true"));
}

// Issue 41, defect 10: a client command that needs the shell gets its clock
// moved through LD_PRELOAD only, which a static client ignores: the run and
// the card say so.
TEST(PlainWordsAdversarial, AShellClientUnderAClientClockFaultIsWarnedAbout) {
    Spec spec;
    spec.client_cmd = "cd clients && ./static_client";
    EXPECT_NE(shell_client_clock_warning(spec, true).find("a statically linked client's clock does not move"),
              std::string::npos);
    EXPECT_EQ(shell_client_clock_warning(spec, false), "");  // no client clock fault
    spec.client_cmd = "clients/static_client --ttl=5";       // plain words: the clock launcher reaches it
    EXPECT_EQ(shell_client_clock_warning(spec, true), "");
    spec.client_cmd.reset();  // the built-in worker
    EXPECT_EQ(shell_client_clock_warning(spec, true), "");
}
