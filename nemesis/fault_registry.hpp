// The faults this build knows: one descriptor each
// (nemesis/fault_descriptor.hpp), listed in fault_registry.cpp.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "nemesis/fault_descriptor.hpp"

namespace lockcheck {

/// Every fault, in the order `lockcheck list` shows them.
const std::vector<FaultDescriptor>& fault_descriptors();
/// The fault called `name`, or nullptr.
const FaultDescriptor* find_fault(const std::string& name);
/// Every fault's options at their defaults, keyed by field: the fault
/// options of a spec that sets none.
nlohmann::json default_fault_options();

}  // namespace lockcheck
