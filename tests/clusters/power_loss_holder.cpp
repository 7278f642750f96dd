// Holds a started redis-independent topology of three servers whose data is
// on the lose-unsynced filesystem, as a run holds its topology (the run's
// lock, its cgroup, its network), prints "ready" and waits (at most 120 s)
// to be killed: for the test that `lockcheck clean` unmounts what a process
// killed with kill -9 left mounted.
//
// usage: power_loss_holder RUN_ID NODES_DIR UNSYNCEDFS_DAEMON
#include <signal.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include "clusters/topologies/redis_independent.hpp"
#include "host/run_containment.hpp"
#include "run/run_liveness.hpp"

int main(int argc, char** argv) {
    using namespace lockcheck;
    if (argc != 4) {
        std::fprintf(stderr, "usage: power_loss_holder RUN_ID NODES_DIR UNSYNCEDFS_DAEMON\n");
        return 254;
    }
    ::signal(SIGPIPE, SIG_IGN);
    try {
        const RunAliveLock alive(argv[1]);
        const RunContainment containment(argv[1]);
        TestNetwork network(argv[1], 3, NetworkMode::Auto);
        TopologyOptions options;
        options.name = "redis-independent";
        options.persistence = "always";
        options.dir = argv[2];
        options.credentials = fresh_server_credentials();
        options.unsynced_data = UnsyncedDataOptions{argv[3], argv[1], "", {}};
        RedisIndependent topology(options, network);
        topology.start();
        std::printf("ready\n");
        std::fflush(stdout);
        std::this_thread::sleep_for(std::chrono::seconds(120));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "power_loss_holder: %s\n", e.what());
        return 255;
    }
    return 0;
}
