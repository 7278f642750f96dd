// Runtime docker against a real Docker daemon (DOCKER_HOST, or the one
// ./test.sh starts: scripts/private_dockerd.sh), label docker: a node's
// container with this host's redis-server at its fixed address on the run's
// network; docker pause freezes it (PING times out) and unpause thaws it;
// run_in_network acts inside the container's namespace; kill is a crash
// (exit 137); the run's network teardown leaves no container and no network;
// a user's image runs the server by its name; a missing image is refused naming it.
#include <gtest/gtest.h>
#include <hiredis/hiredis.h>

#include <chrono>
#include <memory>
#include <thread>

#include "host/system_command.hpp"
#include "host/docker_client.hpp"
#include "clusters/runtimes/docker_network.hpp"
#include "clusters/runtimes/node_runtime_registry.hpp"
#include "clusters/network/test_network.hpp"
#include "run/run_liveness.hpp"
#include "tests/support/scratch_dir.hpp"

using namespace lockcheck;

namespace {

constexpr int kPort = 6390;

/// The reply to PING at `address`, or "" when none came within 300 ms.
std::string ping(const std::string& address) {
    const timeval timeout{0, 300 * 1000};
    std::unique_ptr<redisContext, decltype(&redisFree)> redis(redisConnectWithTimeout(address.c_str(), kPort, timeout),
                                                              redisFree);
    if (!redis || redis->err) return "";
    redisSetTimeout(redis.get(), timeout);
    std::unique_ptr<redisReply, decltype(&freeReplyObject)> reply(
        static_cast<redisReply*>(redisCommand(redis.get(), "PING")), freeReplyObject);
    return reply && reply->type == REDIS_REPLY_STATUS ? reply->str : "";
}

/// Waits up to 10 s, in 50 ms steps, until `done` holds.
template <typename Predicate>
bool within_ten_seconds(Predicate done) {
    for (int i = 0; i < 200; ++i) {
        if (done()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return done();
}

std::string fresh_run_id() {
    return "dt" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count() % 100000000);
}

}  // namespace

TEST(DockerRuntime, RunsPausesEntersAndKillsARedisContainer) {
    ASSERT_NO_THROW(DockerClient().ping()) << "no Docker daemon: run ./test.sh, or scripts/private_dockerd.sh start";
    lockcheck::testing::ScratchDir dir("docker-runtime");
    const std::string run_id = fresh_run_id();
    const RunAliveLock alive(run_id);  // so that the `clean` every run starts with leaves this test's containers alone
    const DockerClient docker;
    {
        TestNetwork network(run_id, 1, NetworkMode::Docker);
        ASSERT_TRUE(network.uses_namespaces());
        ASSERT_EQ(docker.networks_labelled(kDockerRunLabel, run_id).size(), 1U);
        const std::string address = network.address(0);
        auto runtime = make_node_runtime(
            "docker",
            NodePlacement{"n1", address, std::nullopt, dir.path() / "server.log", run_id, {dir.path()}, "", {}});
        EXPECT_TRUE(runtime->has_own_network());
        runtime->start({{"/usr/bin/redis-server", "--port", std::to_string(kPort), "--bind", address,
                         "--protected-mode", "no", "--save", "", "--dir", dir.path().string()},
                        {}});
        ASSERT_TRUE(within_ten_seconds([&] { return ping(address) == "PONG"; })) << runtime->read_log();
        EXPECT_TRUE(runtime->running());
        const pid_t pid = runtime->pid();
        EXPECT_GT(pid, 0);
        EXPECT_NE(runtime->read_log().find("Ready to accept connections"), std::string::npos) << runtime->read_log();
        // The container's own namespace: it holds the node's address, which this host's namespace does not.
        EXPECT_NE(runtime->run_in_network({"ip", "-o", "-4", "addr", "show"}).find(address + "/24"), std::string::npos);

        runtime->pause();
        EXPECT_EQ(ping(address), "") << "a paused container answered";
        EXPECT_TRUE(runtime->running());
        runtime->resume();
        EXPECT_TRUE(within_ten_seconds([&] { return ping(address) == "PONG"; }));

        runtime->pause();
        runtime->kill();  // a paused server crashes as well
        EXPECT_FALSE(runtime->running());
        EXPECT_EQ(runtime->exit_status(), 137);
        EXPECT_EQ(runtime->pid(), -1);
        EXPECT_EQ(ping(address), "");
        EXPECT_THROW(runtime->run_in_network({"true"}), NodeRuntimeError);

        runtime->start({{"/usr/bin/redis-server", "--port", std::to_string(kPort), "--bind", address,
                         "--protected-mode", "no", "--save", ""},
                        {}});
        EXPECT_TRUE(within_ten_seconds([&] { return ping(address) == "PONG"; })) << "no restart after the crash";
        EXPECT_EQ(docker.containers_labelled(kDockerRunLabel, run_id).size(), 1U);
    }
    EXPECT_TRUE(docker.containers_labelled(kDockerRunLabel, run_id).empty()) << "a container of the run is left";
    EXPECT_TRUE(docker.networks_labelled(kDockerRunLabel, run_id).empty()) << "a network of the run is left";
}

TEST(DockerRuntime, AUsersImageRunsTheServerFoundOnItsOwnPath) {
    ASSERT_NO_THROW(DockerClient().ping()) << "no Docker daemon: run ./test.sh, or scripts/private_dockerd.sh start";
    lockcheck::testing::ScratchDir dir("docker-runtime");
    const std::string run_id = fresh_run_id();
    const RunAliveLock alive(run_id);  // so that the `clean` every run starts with leaves this test's containers alone
    const DockerClient docker;
    // An image that is none of lockcheck's: redis-server, /bin/sh and the libraries they load, nothing of /usr mounted.
    const std::string image = "lockcheck-test/redis-only:" + run_id;
    const auto tar = dir.path() / "redis-only.tar";
    run_checked({"sh", "-c",
                 "set -e; libs=$( (ldd /usr/bin/redis-server; ldd /usr/bin/dash) | grep -o '/[^ ]*' | sort -u | "
                 "sed 's|^/||'); tar -chf \"$0\" --transform 's|^usr/bin/dash$|bin/sh|' -C / usr/bin/redis-server "
                 "usr/bin/dash $libs",
                 tar.string()});
    docker.import_image(tar, "lockcheck-test/redis-only", run_id, {});
    {
        TestNetwork network(run_id, 1, NetworkMode::Docker);
        const std::string address = network.address(0);
        auto runtime = make_node_runtime(
            "docker",
            NodePlacement{"n1", address, std::nullopt, dir.path() / "server.log", run_id, {dir.path()}, image, {}});
        // The host's path of the server is no path in the image: it is started by its name.
        runtime->start({{"/opt/only-on-the-host/redis-server", "--port", std::to_string(kPort), "--bind", address,
                         "--protected-mode", "no", "--save", ""},
                        {}});
        EXPECT_TRUE(within_ten_seconds([&] { return ping(address) == "PONG"; })) << runtime->read_log();
    }
    docker.remove_image(image);
    EXPECT_FALSE(docker.has_image(image));
    EXPECT_TRUE(docker.containers_labelled(kDockerRunLabel, run_id).empty());
}

TEST(DockerRuntime, AMissingImageIsRefusedAndNamed) {
    ASSERT_NO_THROW(DockerClient().ping()) << "no Docker daemon: run ./test.sh, or scripts/private_dockerd.sh start";
    lockcheck::testing::ScratchDir dir("docker-runtime");
    const std::string run_id = fresh_run_id();
    const RunAliveLock alive(run_id);  // so that the `clean` every run starts with leaves this test's containers alone
    TestNetwork network(run_id, 1, NetworkMode::Docker);
    auto runtime = make_node_runtime("docker", NodePlacement{"n1",
                                                             network.address(0),
                                                             std::nullopt,
                                                             dir.path() / "server.log",
                                                             run_id,
                                                             {dir.path()},
                                                             "lockcheck-test/absent:0",
                                                             {}});
    try {
        runtime->start({{"/usr/bin/redis-server"}, {}});
        FAIL() << "a missing image started";
    } catch (const NodeRuntimeError& e) {
        EXPECT_NE(std::string(e.what()).find("image lockcheck-test/absent:0 is not on the Docker daemon"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_FALSE(runtime->running());
    EXPECT_TRUE(DockerClient().containers_labelled(kDockerRunLabel, run_id).empty());
}
