#include "run/run_setup.hpp"

#include <stdexcept>

#include "clusters/clock_offset.hpp"
#include "unsyncedfs/availability.hpp"

namespace lockcheck {
namespace {

/// The clock library beside `self_exe` when `fault` (a fault of the plan
/// that needs it) is set; nullopt otherwise. Throws std::runtime_error when
/// it is needed and missing.
std::optional<std::filesystem::path> clock_library_for(const FaultDescriptor* fault,
                                                       const std::filesystem::path& self_exe) {
    if (!fault) return std::nullopt;
    const auto library = find_clock_library(self_exe);
    if (library.empty())
        throw std::runtime_error("fault " + fault->name + " needs libclockshift.so beside " + self_exe.string() +
                                 " or in its ../lib/lockcheck/ (built with lockcheck)");
    return library;
}

}  // namespace

std::optional<std::filesystem::path> worker_clock_library(const RunPlan& plan, const std::filesystem::path& self_exe) {
    return clock_library_for(plan.worker_clock_fault, self_exe);
}

int spec_node_count(const Spec& spec) {
    TopologyOptions topology;
    topology.name = spec.topology;
    topology.node_count = spec.nodes;
    return topology_node_count(topology);
}

TopologyOptions topology_options_for(const RunPlan& plan, const std::filesystem::path& nodes_dir,
                                     const std::filesystem::path& self_exe) {
    const Spec& spec = plan.spec;
    TopologyOptions options;
    options.name = spec.topology;
    options.runtime = spec.runtime;
    options.image = spec.image;
    if (!spec.hosts.empty()) options.hosts = read_hosts_file(spec.hosts);
    options.persistence = spec.persistence;
    options.durability = spec.durability;
    options.dir = nodes_dir;
    options.node_count = spec.nodes;
    options.clock_library = clock_library_for(plan.node_clock_fault, self_exe);
    if (options.clock_library && !std::filesystem::exists(clock_launcher_beside(*options.clock_library)))
        throw std::runtime_error("the clock faults need " + clock_launcher_beside(*options.clock_library).string() +
                                 " beside the clock library (built with lockcheck): statically linked servers "
                                 "ignore LD_PRELOAD");
    if (plan.unsynced_data_fault) {
        options.unsynced_data.emplace();
        options.unsynced_data->daemon = find_unsyncedfs_daemon(self_exe);
    }
    return options;
}

std::optional<std::string> host_refusal(const RunPlan& plan, const std::filesystem::path& self_exe) {
    if (!plan.unsynced_data_fault) return std::nullopt;
    const auto reason = unsyncedfs_unavailable_reason(find_unsyncedfs_daemon(self_exe));
    if (!reason) return std::nullopt;
    return "fault " + plan.unsynced_data_fault->name +
           " cannot run here: the lose-unsynced filesystem is unavailable: " + *reason;
}

}  // namespace lockcheck
