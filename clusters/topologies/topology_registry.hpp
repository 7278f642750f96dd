// The topologies this build knows: one descriptor each
// (clusters/topologies/topology_descriptor.hpp), listed in topology_registry.cpp.
#pragma once

#include <string>
#include <vector>

#include "clusters/topologies/topology_descriptor.hpp"

namespace lockcheck {

/// Every topology, in the order `lockcheck list` shows them.
const std::vector<TopologyDescriptor>& topology_descriptors();
/// The topology called `name`, or nullptr.
const TopologyDescriptor* find_topology(const std::string& name);

}  // namespace lockcheck
