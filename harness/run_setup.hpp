// From the spec to what the topology and the faults of one run need.
#pragma once

#include <filesystem>

#include "clusters/topology.hpp"
#include "harness/spec.hpp"
#include "nemesis/fault_settings.hpp"

namespace lockcheck {

/// The topology options of `spec`, nodes under `nodes_dir`. When the nemesis
/// includes clock-skew, nodes get the clock library installed beside
/// `self_exe`; throws std::runtime_error when it is missing.
TopologyOptions topology_options_for(const Spec& spec, const std::filesystem::path& nodes_dir,
                                     const std::filesystem::path& self_exe);

/// The fault settings of `spec`, times resolved against its ttl_ms.
FaultSettings fault_settings_for(const Spec& spec);

}  // namespace lockcheck
