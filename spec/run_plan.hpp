// The spec of one run resolved once: the registry entries its names stand
// for (topology, recipe, runtime, faults), their options resolved, and what
// the run needs because of them (a fault proxy, the clock library, the
// lose-unsynced filesystem, peer links). plan_run fills it while it validates
// the spec (spec/spec_validation.cpp); every later phase of a run
// (run/run_preflight, run/run_setup, run/run.cpp) reads it instead of looking
// a name up again.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "clusters/runtimes/node_runtime_registry.hpp"
#include "clusters/topologies/topology_descriptor.hpp"
#include "nemesis/fault_factory.hpp"
#include "recipes/recipe_descriptor.hpp"
#include "spec/spec.hpp"

namespace lockcheck {

struct RunPlan {
    /// The spec as validated. A run gives it its seed (run/run.cpp) before
    /// it writes spec.json; nothing else changes it.
    Spec spec;
    /// The topology spec.topology names (its registry entry, never null).
    const TopologyDescriptor* topology = nullptr;
    /// The recipe spec.recipe names, or nullptr when a user's client_cmd
    /// implements the recipe (spec.recipe is then only its name).
    const RecipeDescriptor* recipe = nullptr;
    /// spec.recipe_options with the recipe's defaults filled in, resolved:
    /// what the recipe's factory gets in each worker. An empty object with
    /// client_cmd.
    nlohmann::json recipe_options = nlohmann::json::object();
    /// The runtime spec.runtime names (never null).
    const NodeRuntimeDescriptor* runtime = nullptr;
    /// One per fault of spec.nemesis, in its order: the descriptor and its
    /// options from spec.fault_options, stored and resolved against ttl_ms.
    std::vector<ResolvedFault> faults;
    /// How many network hosts the topology has with spec.nodes: what the test
    /// network is made of, and what no fault event can strike more of.
    int node_count = 0;
    /// The first fault that needs the servers to run with the clock library
    /// (FaultDescriptor::needs_clock_library: clock-skew), or nullptr.
    const FaultDescriptor* node_clock_fault = nullptr;
    /// The first fault that needs the workers to run with it
    /// (needs_worker_clock_library: client-clock-skew), or nullptr.
    const FaultDescriptor* worker_clock_fault = nullptr;
    /// The first fault that needs the lose-unsynced filesystem
    /// (needs_unsynced_data: power-loss), or nullptr.
    const FaultDescriptor* unsynced_data_fault = nullptr;
    /// Whether a fault acts through the fault proxy (needs_proxy): the run
    /// then puts one in front of every node's client port
    /// (nemesis/proxied_network.hpp).
    bool needs_proxy = false;
    /// Whether a fault cuts servers off from each other (cuts_peers:
    /// partition, failover): in loopback mode the run then builds the
    /// topology with its peer traffic through the fault proxy
    /// (clusters/network/peer_links.hpp).
    bool cuts_peers = false;
};

/// Validates `spec` as validate() does (spec/spec.hpp: throws SpecError
/// naming the field, with the same checks in the same order) and returns it
/// resolved: every name looked up once, every option resolved once.
RunPlan plan_run(Spec spec);

}  // namespace lockcheck
