// From the spec to what the topology of one run needs.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "clusters/topologies/topology.hpp"
#include "spec/spec.hpp"

namespace lockcheck {

/// The topology options of `spec`, nodes under `nodes_dir`, with its
/// durability settings. When a fault of the nemesis needs the clock library
/// (FaultDescriptor::needs_clock_library: clock-skew), nodes get the one
/// installed beside `self_exe`; throws std::runtime_error when it is missing.
/// When one needs the lose-unsynced filesystem (needs_unsynced_data:
/// power-loss), unsynced_data is set with the daemon beside `self_exe`; the
/// run fills in its run id and on_failure. Otherwise it stays unset and
/// nothing is mounted.
TopologyOptions topology_options_for(const Spec& spec, const std::filesystem::path& nodes_dir,
                                     const std::filesystem::path& self_exe);

/// How many nodes (network hosts) `spec`'s topology has, with its `nodes`
/// field: what no fault event can strike more of.
int spec_node_count(const Spec& spec);

/// The clock library beside `self_exe` when a fault of `spec`'s nemesis
/// needs the workers to run with it (FaultDescriptor::needs_worker_clock_library:
/// client-clock-skew); nullopt otherwise. Throws std::runtime_error when it
/// is needed and missing.
std::optional<std::filesystem::path> worker_clock_library(const Spec& spec, const std::filesystem::path& self_exe);

/// Whether a fault of `spec`'s nemesis acts through the fault proxy
/// (FaultDescriptor::needs_proxy): the run then puts one in front of every
/// node's client port (nemesis/proxied_network.hpp).
bool nemesis_needs_proxy(const Spec& spec);

/// Whether a fault of `spec`'s nemesis cuts servers off from each other
/// (FaultDescriptor::cuts_peers: partition, failover): in loopback mode the
/// run then builds the topology with its peer traffic through the fault
/// proxy (clusters/network/peer_links.hpp).
bool nemesis_cuts_peers(const Spec& spec);

/// Why this host cannot run `spec`'s nemesis, as "fault F cannot run here:
/// REASON" (a fault that needs the lose-unsynced filesystem, which needs
/// root, /dev/fuse and its daemon beside `self_exe`), or nullopt. A run asks
/// before it makes its run directory and refuses the spec (exit 254).
std::optional<std::string> host_refusal(const Spec& spec, const std::filesystem::path& self_exe);

}  // namespace lockcheck
