// What a run decides before it makes anything (the run directory,
// store/latest, the network): whether it gets network namespaces, and whether
// its faults can act without them. A run refused here leaves nothing behind.
#pragma once

#include "clusters/network/test_network.hpp"
#include "spec/run_plan.hpp"

namespace lockcheck {

/// The network mode the run uses, resolved: NetworkMode::Namespaces or
/// NetworkMode::Loopback (auto picks namespaces when this process can create
/// them). Throws SpecError, naming the field, when `plan`'s spec asks for what this
/// process cannot do: network "netns" without root, or a fault that needs
/// namespaces (FaultDescriptor::needs_namespaces: packet-loss) in a run that
/// will have none, or one that cuts servers off from each other
/// (FaultDescriptor::cuts_peers: partition, failover) on a topology whose
/// peers do not talk through the fault proxy in loopback mode
/// (TopologyDescriptor::peer_links_cut_peers).
/// A runtime that brings its own network (NodeRuntimeDescriptor::network:
/// docker, ssh) gets it, when the spec leaves `network` auto, the process is
/// root (docker), no fault needs what the runtime refuses
/// (refuses_unsynced_data: power-loss), and (ssh) the hosts file
/// parses and has a host for every node; throws HarnessError when the
/// runtime is unavailable (no Docker daemon, no ssh client).
NetworkMode preflight_network(const RunPlan& plan);

}  // namespace lockcheck
