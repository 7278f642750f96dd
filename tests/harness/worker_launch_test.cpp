// How a run starts a worker (issue 15, item 15): a client_cmd runs through
// plain `sh -c`, so shell lines work (process_containment_test: pausing such a
// worker pauses what the shell started); the init carries the lease; the
// fork server the built-in workers are forked from is named with the run id.
#include <gtest/gtest.h>

#include <filesystem>

#include "clusters/clock_offset.hpp"
#include "workers/plain_words_client.hpp"
#include "workers/worker_launch.hpp"
#include "tests/support/scratch_dir.hpp"

using namespace lockcheck;

// Regression: the command ran as `/bin/sh -c "exec CMD"`, so `VAR=1 cmd` and
// `cd d && cmd` failed.
TEST(WorkerCommand, AClientCommandRunsThroughPlainShAndTheInitCarriesTheLease) {
    Spec spec;
    spec.client_cmd = "cd /tmp && LOCK_CLIENT_DEBUG=1 ./my-client --fast";
    spec.ttl_ms = 2500;
    const auto launch =
        worker_launch(spec, {"10.77.1.1:6379"}, std::nullopt, "/usr/bin/lockcheck", "/tmp/run", "r1", 4);
    EXPECT_EQ(launch.child.argv, (std::vector<std::string>{"/bin/sh", "-c", *spec.client_cmd}));
    EXPECT_EQ(launch.init.ttl_ms, 2500);
    EXPECT_NE(encode_init(launch.init).find("\"ttl_ms\":2500"), std::string::npos) << encode_init(launch.init);
    EXPECT_EQ(decode_init(encode_init(launch.init)).ttl_ms, 2500);
    EXPECT_EQ(launch.init.process, 4);
}

// The fork server is this binary's hidden worker subcommand, named with the
// run id so that ps and the leftover checks find it and the workers it forks.
TEST(WorkerCommand, TheForkServerIsTheWorkerSubcommandNamedWithTheRunId) {
    EXPECT_EQ(fork_server_argv("/usr/bin/lockcheck", "1a2b3c"),
              (std::vector<std::string>{"/usr/bin/lockcheck", "worker", "--fork-server", "--run-id", "1a2b3c"}));
    EXPECT_EQ(fork_server_log("/tmp/run"), std::filesystem::path("/tmp/run/workers/fork-server.log"));
    // Without a fork server the built-in worker is exec'd, as a client_cmd always is.
    Spec spec;
    const auto exec_launch =
        worker_launch(spec, {"10.77.1.1:6379"}, std::nullopt, "/usr/bin/lockcheck", "/tmp/run", "1a2b3c", 0);
    EXPECT_FALSE(exec_launch.child.start);
    EXPECT_EQ(exec_launch.child.argv[1], "worker");
}

// A run that moves the workers' clocks starts a client command of plain words
// behind the clock launcher (a statically linked client is reached too); one
// that needs the shell keeps /bin/sh -c.
TEST(WorkerCommand, UnderAClientClockFaultPlainWordsRunBehindTheClockLauncher) {
    const lockcheck::testing::ScratchDir run_dir("worker-command");  // the worker's clock file is written there
    Spec spec;
    spec.client_cmd = "./bin/go-lock-client --ttl=5 10.77.1.1:6379";
    const std::filesystem::path library = "/usr/lib/lockcheck/libclockshift.so";
    const auto launch = worker_launch(spec, {"10.77.1.1:6379"}, std::nullopt, "/usr/bin/lockcheck", run_dir.path(),
                                      "r1", 2, nullptr, library);
    EXPECT_EQ(launch.child.argv,
              (std::vector<std::string>{clock_launcher_beside(library).string(), "--", "./bin/go-lock-client",
                                        "--ttl=5", "10.77.1.1:6379"}));
    spec.client_cmd = "cd /tmp && ./client";
    EXPECT_EQ(worker_launch(spec, {}, std::nullopt, "/usr/bin/lockcheck", run_dir.path(), "r1", 2, nullptr, library)
                  .child.argv,
              (std::vector<std::string>{"/bin/sh", "-c", "cd /tmp && ./client"}));
    spec.client_cmd = "./bin/go-lock-client";
    EXPECT_EQ(worker_launch(spec, {}, std::nullopt, "/usr/bin/lockcheck", "/tmp/run", "r1", 2).child.argv,
              (std::vector<std::string>{"/bin/sh", "-c", "./bin/go-lock-client"}))
        << "no clock fault: the shell, as always";
}

TEST(PlainCommand, OnlyWordsWithoutShellSyntaxAreSplit) {
    EXPECT_EQ(plain_command_words("  python3\tclient.py --ttl=5 a,b:c@d%e+f "),
              (std::vector<std::string>{"python3", "client.py", "--ttl=5", "a,b:c@d%e+f"}));
    for (const char* shell : {"VAR=1 ./client", "cd d && ./c", "./c 'quoted'", "./c \"q\"", "./c $HOME", "./c *.py",
                              "./c > out", "./c; ./d", "./c | tee", "./c ~/x", "./c `x`", "./c\n./d", "", "   "})
        EXPECT_FALSE(plain_command_words(shell)) << shell;
}
