#include "run/run_preflight.hpp"

#include <stdexcept>

#include "clusters/runtimes/remote_host.hpp"
#include "run/exit_codes.hpp"

namespace lockcheck {
namespace {

/// Runtime ssh: a hosts file that parses and has a host for every node.
void preflight_hosts(const RunPlan& plan) {
    const Spec& spec = plan.spec;
    std::vector<RemoteHost> hosts;
    try {
        hosts = read_hosts_file(spec.hosts);
    } catch (const HostsFileError& e) {
        throw SpecError(std::string("field 'hosts': ") + e.what());
    }
    const int nodes = plan.node_count;
    if (static_cast<int>(hosts.size()) < nodes)
        throw SpecError("field 'hosts': hosts file " + spec.hosts + " lists " + std::to_string(hosts.size()) +
                        " host(s), but topology " + spec.topology + " has " + std::to_string(nodes) +
                        " nodes (node i runs on host i)");
}

/// The network of a runtime that brings its own (docker, ssh), after the checks of preflight_network.
NetworkMode preflight_runtime_network(const RunPlan& plan, const NodeRuntimeDescriptor& runtime) {
    const Spec& spec = plan.spec;
    if (spec.network != "auto")
        throw SpecError("field 'network' is " + spec.network + ", but runtime " + runtime.name +
                        " brings its own network; leave network auto");
    if (runtime.network == NetworkMode::Docker && !can_use_namespaces())
        throw SpecError("field 'runtime' is " + runtime.name +
                        ", which needs root (faults enter the nodes' network namespaces); run as root");
    for (const auto& fault : plan.faults) {
        const std::string refusal = fault.descriptor->needs_unsynced_data ? runtime.refuses_unsynced_data : "";
        if (!refusal.empty())
            throw SpecError("field 'nemesis': fault '" + fault.descriptor->name + "' cannot run with runtime " +
                            runtime.name + ": " + refusal);
    }
    if (runtime.network == NetworkMode::Hosts) preflight_hosts(plan);
    if (runtime.unavailable)
        if (const auto reason = runtime.unavailable()) throw HarnessError(*reason);
    return *runtime.network;
}

}  // namespace

NetworkMode preflight_network(const RunPlan& plan) {
    const Spec& spec = plan.spec;
    NetworkMode mode = NetworkMode::Auto;
    try {
        mode = network_mode_from_string(spec.network);
    } catch (const std::invalid_argument& e) {
        throw SpecError(std::string("field 'network' ") + e.what());
    }
    if (plan.runtime->network) return preflight_runtime_network(plan, *plan.runtime);
    const bool namespaces = mode != NetworkMode::Loopback && can_use_namespaces();
    if (mode == NetworkMode::Namespaces && !namespaces)
        throw SpecError(
            "field 'network' is netns, which needs root and iproute2; run as root or use --network loopback");
    if (namespaces) return NetworkMode::Namespaces;
    const TopologyDescriptor& topology = *plan.topology;
    const std::string no_namespaces =
        mode == NetworkMode::Loopback ? "was told not to use (network loopback)" : "cannot create (run as root)";
    for (const auto& resolved : plan.faults) {
        const FaultDescriptor& fault = *resolved.descriptor;
        if (const auto found = topology.faults_needing_namespaces.find(fault.name);
            found != topology.faults_needing_namespaces.end())
            throw SpecError("field 'nemesis': fault '" + fault.name + "' needs network namespaces on topology " +
                            spec.topology + ", which this run " + no_namespaces + ": " + found->second);
        if (!(fault.needs_namespaces || (fault.cuts_peers && !topology.peer_links_cut_peers))) continue;
        throw SpecError("field 'nemesis': fault '" + fault.name + "' needs network namespaces, which this run " +
                        no_namespaces +
                        (fault.cuts_peers ? "; without them the servers of topology " + spec.topology +
                                                " cannot be cut off from each other: " + topology.no_peer_links_reason
                                          : ""));
    }
    return NetworkMode::Loopback;
}

}  // namespace lockcheck
