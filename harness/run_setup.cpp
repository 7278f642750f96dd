#include "harness/run_setup.hpp"

#include <stdexcept>

#include "clusters/clock_offset.hpp"
#include "nemesis/fault_registry.hpp"

namespace lockcheck {

TopologyOptions topology_options_for(const Spec& spec, const std::filesystem::path& nodes_dir,
                                     const std::filesystem::path& self_exe) {
    TopologyOptions options;
    options.name = spec.topology;
    options.persistence = spec.persistence;
    options.dir = nodes_dir;
    options.node_count = spec.nodes;
    for (const auto& kind : spec.nemesis) {
        const FaultDescriptor* fault = find_fault(kind);
        if (!fault || !fault->needs_clock_library || options.clock_library) continue;
        const auto library = find_clock_library(self_exe);
        if (library.empty())
            throw std::runtime_error("fault " + kind + " needs libclockshift.so beside " + self_exe.string() +
                                     " (built with lockcheck)");
        options.clock_library = library;
    }
    return options;
}

}  // namespace lockcheck
