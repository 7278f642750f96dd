// From the spec to what the topology of one run needs.
#pragma once

#include <filesystem>

#include "clusters/topology.hpp"
#include "harness/spec.hpp"

namespace lockcheck {

/// The topology options of `spec`, nodes under `nodes_dir`. When a fault of
/// the nemesis needs the clock library (FaultDescriptor::needs_clock_library:
/// clock-skew), nodes get the one installed beside `self_exe`; throws
/// std::runtime_error when it is missing.
TopologyOptions topology_options_for(const Spec& spec, const std::filesystem::path& nodes_dir,
                                     const std::filesystem::path& self_exe);

}  // namespace lockcheck
