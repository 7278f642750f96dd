#include "harness/run_preflight.hpp"

#include <stdexcept>

#include "clusters/topology_registry.hpp"
#include "nemesis/fault_registry.hpp"

namespace lockcheck {

NetworkMode preflight_network(const Spec& spec) {
    NetworkMode mode = NetworkMode::Auto;
    try {
        mode = network_mode_from_string(spec.network);
    } catch (const std::invalid_argument& e) {
        throw SpecError(std::string("field 'network' ") + e.what());
    }
    const bool namespaces = mode != NetworkMode::Loopback && can_use_namespaces();
    if (mode == NetworkMode::Namespaces && !namespaces)
        throw SpecError(
            "field 'network' is netns, which needs root and iproute2; run as root or use --network loopback");
    const TopologyDescriptor* topology = find_topology(spec.topology);
    const bool peers_cuttable = topology && topology->peer_links_cut_peers;
    for (const auto& kind : spec.nemesis) {
        const FaultDescriptor* fault = find_fault(kind);
        if (namespaces || !fault || !(fault->needs_namespaces || (fault->cuts_peers && !peers_cuttable))) continue;
        throw SpecError(
            "field 'nemesis': fault '" + kind + "' needs network namespaces, which this run " +
            (mode == NetworkMode::Loopback ? "was told not to use (network loopback)" : "cannot create (run as root)") +
            (fault->cuts_peers
                 ? "; without them the servers of topology " + spec.topology + " cannot be cut off from each other: " +
                       (topology ? topology->no_peer_links_reason : "it is unknown")
                 : ""));
    }
    return namespaces ? NetworkMode::Namespaces : NetworkMode::Loopback;
}

}  // namespace lockcheck
