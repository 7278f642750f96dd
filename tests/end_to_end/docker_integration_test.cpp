// Runs with runtime docker against a real Docker daemon (DOCKER_HOST, or the
// private one ./test.sh starts: scripts/private_dockerd.sh), label docker:
// a holder pause on redis-single and on a ZooKeeper ensemble is invalid with
// the servers in containers, and so is a Sentinel failover (within the
// lease); a relative --store names the same files in the containers;
// an interrupted run removes its containers and network; kill -9 of the controller followed by
// `lockcheck clean` leaves no container and no network; no daemon and a
// missing image are one line each, exit 255, nothing left behind.
#include <gtest/gtest.h>
#include <signal.h>

#include <fstream>
#include <thread>

#include "host/docker_client.hpp"
#include "tests/support/integration_helpers.hpp"

namespace fs = std::filesystem;
using namespace lockcheck;
using namespace lockcheck::testing;

namespace {

/// Asserts (as gtest failures) that the daemon holds no container and no network of the run.
void expect_nothing_left_in_docker(const std::string& run_id) {
    const DockerClient docker;
    EXPECT_TRUE(docker.containers_labelled(kDockerRunLabel, run_id).empty()) << "a container of run " << run_id;
    EXPECT_TRUE(docker.networks_labelled(kDockerRunLabel, run_id).empty()) << "a network of run " << run_id;
}

/// scenarios/NAME.json with `changes` merged in, written into `dir`; returns its path.
std::string spec_with(const fs::path& dir, const char* name, const nlohmann::json& changes) {
    auto spec = nlohmann::json::parse(read_file(scenario(name)));
    spec.update(changes);
    const auto path = dir / (std::string(name) + ".json");
    std::ofstream(path) << spec.dump();
    return path.string();
}

class DockerRun : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_NO_THROW(DockerClient().ping())
            << "no Docker daemon: run ./test.sh, or scripts/private_dockerd.sh start";
    }
};

/// The id of the run started in `store` once its first container exists (up to 15 s; "" if none came).
std::string wait_for_container(const fs::path& store) {
    std::string run_id;
    const DockerClient docker;
    for (int i = 0; i < 300 && (run_id.empty() || docker.containers_labelled(kDockerRunLabel, run_id).empty()); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        if (run_id.empty() && fs::exists(store / "latest")) run_id = latest_run(store).run_id;
    }
    return run_id.empty() || docker.containers_labelled(kDockerRunLabel, run_id).empty() ? "" : run_id;
}

TEST_F(DockerRun, RedisHolderPauseIsInvalid) {
    const auto run = run_until_decided("docker-redis-holder-pause", scenario("redis-holder-pause"), 30, {"--runtime", "docker"});
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_NE(run.output.find("scenario expectation: met"), std::string::npos) << run.output;
    EXPECT_NE(read_file(run.run_dir / "lockcheck.log").find("network: docker"), std::string::npos);
    expect_nothing_left(run);
    expect_nothing_left_in_docker(run.run_id);
}

TEST_F(DockerRun, ARelativeStoreNamesTheSameFilesInTheContainers) {
    // No faults: a healthy Redis in a container is valid once it starts from the files it was given.
    const auto run = run_lockcheck_with_relative_store(
        "docker-relative-store",
        {"run", scenario("redis-holder-pause"), "--runtime", "docker", "--nemesis", "none", "--time-limit", "4"});
    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_TRUE(run.results.is_object()) << run.output;
    expect_nothing_left(run);
    expect_nothing_left_in_docker(run.run_id);
}

TEST_F(DockerRun, ZooKeeperHolderPauseIsInvalid) {
    // Rule: up to 40 s, ended once a lease-expired overlap is found (--stop-on-decided): under load a ZooKeeper
    // acquire takes most of a second, and an overlap the record cannot order is undecided, not lease-expired.
    const auto run = run_lockcheck("docker-zk-holder-pause", {"run", scenario("zk-holder-pause"), "--runtime", "docker",
                                                              "--time-limit", "40", "--stop-on-decided"});
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_NE(run.output.find("scenario expectation: met"), std::string::npos) << run.output;
    expect_nothing_left(run);
    expect_nothing_left_in_docker(run.run_id);
}

TEST_F(DockerRun, SentinelFailoverIsInvalidWithinTheLease) {
    // The failover cuts the primary off with iptables inside its container's network namespace.
    // Rule: up to 60 s, ended once an overlap within the lease is found (about 5 s in): a failover makes the
    // overlap only when a lock granted on the old primary is still held at the promotion, so the test leaves
    // room for several failovers instead of the scenario's 20 s.
    const auto run = run_lockcheck("docker-sentinel-failover",
                                   {"run", scenario("redis-failover-lock-loss"), "--runtime", "docker", "--time-limit",
                                    "60", "--stop-on-decided"});
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_NE(run.output.find("overlap-within-lease"), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("scenario expectation: met"), std::string::npos) << run.output;
    expect_nothing_left(run);
    expect_nothing_left_in_docker(run.run_id);
}

TEST_F(DockerRun, AnInterruptedRunRemovesItsContainersAndNetwork) {
    const auto store = fresh_store("docker-interrupt");
    auto controller =
        start_lockcheck(store, {"run", scenario("redis-holder-pause"), "--runtime", "docker", "--time-limit", "30"});
    const std::string run_id = wait_for_container(store);
    ASSERT_FALSE(run_id.empty()) << "the run never made its container: " << read_file(store / "output.txt");
    // Interrupted once its workers run (the output names their client): a run, not a failed start.
    for (int i = 0; i < 400 && read_file(store / "output.txt").find("client: ") == std::string::npos; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    controller->send_signal(SIGINT);
    const auto run = finish(*controller, store);
    EXPECT_NE(run.output.find("client: "), std::string::npos) << run.output;
    EXPECT_NE(run.exit_code, 255) << run.output;
    EXPECT_TRUE(run.results.is_object()) << "an interrupted run still checks what it recorded";
    expect_nothing_left(run);
    expect_nothing_left_in_docker(run_id);
}

TEST_F(DockerRun, CleanAfterKillNineLeavesNoContainerAndNoNetwork) {
    const auto store = fresh_store("docker-kill-clean");
    auto controller =
        start_lockcheck(store, {"run", scenario("redis-holder-pause"), "--runtime", "docker", "--time-limit", "30"});
    const std::string run_id = wait_for_container(store);
    ASSERT_FALSE(run_id.empty()) << "the run never made its container: " << read_file(store / "output.txt");
    const DockerClient docker;
    kill_controller_only(*controller);
    EXPECT_FALSE(docker.networks_labelled(kDockerRunLabel, run_id).empty()) << "kill -9 left nothing to clean";
    const auto cleaned = run_clean(store);
    EXPECT_NE(cleaned.find("removed container lc-" + run_id + "-n1"), std::string::npos) << cleaned;
    EXPECT_NE(cleaned.find("removed docker network lc-" + run_id), std::string::npos) << cleaned;
    expect_nothing_left_in_docker(run_id);
    auto run = latest_run(store);
    expect_nothing_left(run);
}

TEST_F(DockerRun, NoDaemonIsOneLineAndExit255) {
    const auto store = fresh_store("docker-no-daemon");
    auto controller = start_lockcheck(store, {"run", scenario("redis-holder-pause"), "--runtime", "docker"},
                                      {"env", "DOCKER_HOST=unix:///nonexistent/lockcheck/docker.sock"});
    const auto run = finish(*controller, store);
    EXPECT_EQ(run.exit_code, 255);
    EXPECT_EQ(run.output.rfind("lockcheck: error: docker runtime: no Docker daemon at "
                               "unix:///nonexistent/lockcheck/docker.sock: ",
                               0),
              0U)
        << run.output;
    EXPECT_EQ(std::count(run.output.begin(), run.output.end(), '\n'), 1) << run.output;
    EXPECT_FALSE(fs::exists(store / "latest")) << "a run that could not start left a run directory";
}

TEST_F(DockerRun, AMissingImageNamesTheNodeAndLeavesNothing) {
    const auto store = fresh_store("docker-missing-image");
    const auto spec =
        spec_with(store, "redis-holder-pause", {{"runtime", "docker"}, {"image", "lockcheck-test/absent:0"}});
    auto controller = start_lockcheck(store, {"run", spec});
    const auto run = finish(*controller, store);
    EXPECT_EQ(run.exit_code, 255) << run.output;
    EXPECT_NE(run.output.find("lockcheck: error: node n1: image lockcheck-test/absent:0 is not on the Docker daemon"),
              std::string::npos)
        << run.output;
    expect_nothing_left(run);
    expect_nothing_left_in_docker(run.run_id);
}

}  // namespace
