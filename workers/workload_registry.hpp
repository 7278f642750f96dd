// The workloads this build knows (workers/workload.hpp), and which one runs
// for the capabilities the workers announce.
#pragma once

#include <string>
#include <vector>

#include "workers/workload.hpp"

namespace lockcheck {

/// Every workload, the default one (no selecting capability) included.
const std::vector<const WorkloadDescriptor*>& workloads();

/// The workload whose capability is in `capabilities`, else the default one.
const WorkloadDescriptor& workload_for(const std::vector<std::string>& capabilities);

}  // namespace lockcheck
