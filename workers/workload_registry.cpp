#include "workers/workload_registry.hpp"

#include <algorithm>
#include <stdexcept>

#include "workers/lock_workload.hpp"
#include "workers/stock_workload.hpp"
#include "workers/unique_ids_workload.hpp"

namespace lockcheck {

const std::vector<const WorkloadDescriptor*>& workloads() {
    static const std::vector<const WorkloadDescriptor*> all{
        &lock_workload(),
        &stock_workload(),
        &unique_ids_workload(),
    };
    return all;
}

const WorkloadDescriptor& workload_for(const std::vector<std::string>& capabilities) {
    const WorkloadDescriptor* fallback = nullptr;
    for (const WorkloadDescriptor* workload : workloads()) {
        if (workload->capability.empty())
            fallback = workload;
        else if (std::find(capabilities.begin(), capabilities.end(), workload->capability) != capabilities.end())
            return *workload;
    }
    if (!fallback) throw std::logic_error("no default workload registered");
    return *fallback;
}

}  // namespace lockcheck
