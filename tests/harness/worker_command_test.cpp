// How a run starts a worker (issue 15, item 15): a client_cmd runs through
// plain `sh -c`, so shell lines work (process_containment_test: pausing such a
// worker pauses what the shell started); the init carries the lease.
#include <gtest/gtest.h>

#include <filesystem>

#include "harness/worker_command.hpp"

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
