#include "run/run_cluster.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cstdio>

#include "clusters/power_loss.hpp"
#include "run/run_setup.hpp"
#include "workers/worker_launch.hpp"

namespace lockcheck {
namespace {

/// The topology options of the run, with its scratch directory, credentials
/// and interrupt; a dead lose-unsynced filesystem daemon stops the run.
TopologyOptions run_topology_options(const RunContext& run, const std::filesystem::path& scratch_dir) {
    TopologyOptions topology_options = topology_options_for(run.plan, run.dir.path / "nodes", run.options.self_exe);
    topology_options.scratch_dir = scratch_dir;
    topology_options.credentials = run.credentials;
    topology_options.interrupt = run.options.interrupted;
    if (topology_options.unsynced_data) {
        topology_options.unsynced_data->run_id = run.dir.run_id;
        // A dead filesystem daemon (its mount detached already) ends the run:
        // what it holds from then on is no power loss the scenario asked for.
        topology_options.unsynced_data->on_failure = [&stop = run.stop](const std::string& message) {
            spdlog::error("{}; stopping the run", message);
            stop.request_stop();
        };
    }
    return topology_options;
}

std::vector<std::string> addresses_of(const std::vector<RemoteHost>& hosts) {
    std::vector<std::string> addresses;
    for (const auto& host : hosts) addresses.push_back(host.address);
    return addresses;
}

/// Says on the terminal (without namespaces) and in the log what network the run has.
void announce_network(const TestNetwork& network) {
    if (!network.uses_namespaces())
        std::printf(
            "note: no network namespaces (needs root): nodes run on %s; packet-loss is unavailable, partition "
            "and failover cut the servers' links through the fault proxy\n",
            network.address(0).c_str());
    spdlog::info("network: {} ({} nodes, first at {})",
                 network.uses_docker()       ? "docker"
                 : network.uses_hosts()      ? "hosts (runtime ssh)"
                 : network.uses_namespaces() ? "namespaces"
                                             : "loopback",
                 network.node_count(), network.address(0));
}

}  // namespace

RunCluster::RunCluster(const RunContext& run, NetworkMode network_mode, const std::filesystem::path& scratch_dir)
    : topology_options(run_topology_options(run, scratch_dir)),
      network(run.dir.run_id, run.plan.node_count, network_mode, addresses_of(topology_options.hosts)) {
    announce_network(network);
    // In loopback mode a partition or failover cuts the servers' peer links in the fault proxy: the
    // topology is built with its peers talking through them. Destroyed after the topology stops.
    if (!network.uses_namespaces() && run.plan.cuts_peers) {
        peer_links = std::make_unique<PeerLinks>();
        topology_options.peer_links = peer_links.get();
    }
    // Built-in workers are forked from one started worker (host/fork_server.hpp), a user's
    // client_cmd is exec'd. Started before the topology, so that it loads while the servers
    // start; ended after the workers (made before the pool).
    std::filesystem::create_directories(run.dir.path / "workers");
    // client-clock-skew: every worker exec'd with the clock library and an offset file of its own.
    worker_clock = worker_clock_library(run.plan, run.options.self_exe);
    if (const auto warning = shell_client_clock_warning(run.plan.spec, worker_clock.has_value());
        !warning.empty()) {
        spdlog::warn("{}", warning);
        std::fprintf(stderr, "warning: %s\n", warning.c_str());
    }
    if (!run.plan.spec.client_cmd && !worker_clock) {
        fork_server = std::make_unique<ForkServer>(fork_server_argv(run.options.self_exe, run.dir.run_id),
                                                   fork_server_log(run.dir.path));
        spdlog::info("workers are forked from the fork server, pid {}", fork_server->pid());
    }
    topology = run.plan.topology->make(topology_options, network);
    topology->start();
    make_data_durable(*topology);  // what the servers wrote while starting is no acknowledged write
    endpoints = topology->client_endpoints();
    spdlog::info("topology {} ready: {}", run.plan.spec.topology, fmt::join(endpoints, ", "));
    // With a proxy fault in the nemesis, every worker reaches the nodes through links of its own in the
    // run's fault proxy; otherwise there is no proxy. Made before the workers, gone after them.
    if (run.plan.needs_proxy) {
        proxy = std::make_unique<ProxiedNetwork>(endpoints, *run.plan.spec.seed);
        spdlog::info("fault proxy in front of {}: workers connect through it", fmt::join(endpoints, ", "));
    }
}

}  // namespace lockcheck
