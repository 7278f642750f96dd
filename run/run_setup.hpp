// From a run's plan (spec/run_plan.hpp) to what the topology and the workers
// of the run need on this host: the clock library, the lose-unsynced
// filesystem's daemon.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "clusters/topologies/topology.hpp"
#include "spec/run_plan.hpp"

namespace lockcheck {

/// The topology options of `plan`'s spec, nodes under `nodes_dir`, with its
/// durability settings. When a fault of the nemesis needs the clock library
/// (RunPlan::node_clock_fault: clock-skew), nodes get the one installed
/// beside `self_exe`; throws std::runtime_error when it is missing. When one
/// needs the lose-unsynced filesystem (RunPlan::unsynced_data_fault:
/// power-loss), unsynced_data is set with the daemon beside `self_exe`; the
/// run fills in its run id and on_failure. Otherwise it stays unset and
/// nothing is mounted.
TopologyOptions topology_options_for(const RunPlan& plan, const std::filesystem::path& nodes_dir,
                                     const std::filesystem::path& self_exe);

/// How many nodes (network hosts) `spec`'s topology has, with its `nodes`
/// field: what no fault event can strike more of (RunPlan::node_count of a
/// spec that is not being run).
int spec_node_count(const Spec& spec);

/// The clock library beside `self_exe` when a fault of `plan`'s nemesis
/// needs the workers to run with it (RunPlan::worker_clock_fault:
/// client-clock-skew); nullopt otherwise. Throws std::runtime_error when it
/// is needed and missing.
std::optional<std::filesystem::path> worker_clock_library(const RunPlan& plan, const std::filesystem::path& self_exe);

/// Why this host cannot run `plan`'s nemesis, as "fault F cannot run here:
/// REASON" (a fault that needs the lose-unsynced filesystem, which needs
/// root, /dev/fuse and its daemon beside `self_exe`), or nullopt. A run asks
/// before it makes its run directory and refuses the spec (exit 254).
std::optional<std::string> host_refusal(const RunPlan& plan, const std::filesystem::path& self_exe);

}  // namespace lockcheck
