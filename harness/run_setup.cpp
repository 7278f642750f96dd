#include "harness/run_setup.hpp"

#include <algorithm>
#include <stdexcept>

#include "clusters/clock_offset.hpp"

namespace lockcheck {

TopologyOptions topology_options_for(const Spec& spec, const std::filesystem::path& nodes_dir,
                                     const std::filesystem::path& self_exe) {
    TopologyOptions options;
    options.name = spec.topology;
    options.persistence = spec.persistence;
    options.dir = nodes_dir;
    options.node_count = spec.nodes;
    if (std::find(spec.nemesis.begin(), spec.nemesis.end(), "clock-skew") != spec.nemesis.end()) {
        const auto library = find_clock_library(self_exe);
        if (library.empty())
            throw std::runtime_error("fault clock-skew needs libclockshift.so beside " + self_exe.string() +
                                     " (built with lockcheck)");
        options.clock_library = library;
    }
    return options;
}

FaultSettings fault_settings_for(const Spec& spec) {
    FaultSettings s;
    s.restart_delay_ms = spec.restart_delay_ms.resolve(spec.ttl_ms);
    s.partition_mode = spec.partition_mode;
    s.packet_loss = spec.packet_loss;
    s.clock_skew_ms = spec.clock_skew_ms.resolve(spec.ttl_ms);
    s.clock_skew_nodes = spec.clock_skew_nodes;
    return s;
}

}  // namespace lockcheck
