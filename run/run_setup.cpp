#include "run/run_setup.hpp"

#include <stdexcept>

#include "clusters/clock_offset.hpp"
#include "nemesis/fault_registry.hpp"
#include "unsyncedfs/availability.hpp"

namespace lockcheck {
namespace {

/// The first fault of `spec`'s nemesis that needs the lose-unsynced filesystem, or nullptr.
const FaultDescriptor* fault_needing_unsynced_data(const Spec& spec) {
    for (const auto& kind : spec.nemesis)
        if (const FaultDescriptor* fault = find_fault(kind); fault && fault->needs_unsynced_data) return fault;
    return nullptr;
}

/// The clock library beside `self_exe` when a fault of `spec`'s nemesis has
/// `flag` set; nullopt otherwise. Throws std::runtime_error when it is needed and missing.
std::optional<std::filesystem::path> clock_library_for(const Spec& spec, bool FaultDescriptor::*flag,
                                                       const std::filesystem::path& self_exe) {
    for (const auto& kind : spec.nemesis) {
        const FaultDescriptor* fault = find_fault(kind);
        if (!fault || !((*fault).*flag)) continue;
        const auto library = find_clock_library(self_exe);
        if (library.empty())
            throw std::runtime_error("fault " + kind + " needs libclockshift.so beside " + self_exe.string() +
                                     " or in its ../lib/lockcheck/ (built with lockcheck)");
        return library;
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::filesystem::path> worker_clock_library(const Spec& spec, const std::filesystem::path& self_exe) {
    return clock_library_for(spec, &FaultDescriptor::needs_worker_clock_library, self_exe);
}

int spec_node_count(const Spec& spec) {
    TopologyOptions topology;
    topology.name = spec.topology;
    topology.node_count = spec.nodes;
    return topology_node_count(topology);
}

TopologyOptions topology_options_for(const Spec& spec, const std::filesystem::path& nodes_dir,
                                     const std::filesystem::path& self_exe) {
    TopologyOptions options;
    options.name = spec.topology;
    options.runtime = spec.runtime;
    options.image = spec.image;
    if (!spec.hosts.empty()) options.hosts = read_hosts_file(spec.hosts);
    options.persistence = spec.persistence;
    options.durability = spec.durability;
    options.dir = nodes_dir;
    options.node_count = spec.nodes;
    options.clock_library = clock_library_for(spec, &FaultDescriptor::needs_clock_library, self_exe);
    if (options.clock_library && !std::filesystem::exists(clock_launcher_beside(*options.clock_library)))
        throw std::runtime_error("the clock faults need " + clock_launcher_beside(*options.clock_library).string() +
                                 " beside the clock library (built with lockcheck): statically linked servers "
                                 "ignore LD_PRELOAD");
    if (fault_needing_unsynced_data(spec)) {
        options.unsynced_data.emplace();
        options.unsynced_data->daemon = find_unsyncedfs_daemon(self_exe);
    }
    return options;
}

namespace {

/// Whether a fault of `spec`'s nemesis has `flag` set in its descriptor.
bool nemesis_has(const Spec& spec, bool FaultDescriptor::*flag) {
    for (const auto& kind : spec.nemesis)
        if (const FaultDescriptor* fault = find_fault(kind); fault && (*fault).*flag) return true;
    return false;
}

}  // namespace

bool nemesis_needs_proxy(const Spec& spec) { return nemesis_has(spec, &FaultDescriptor::needs_proxy); }

bool nemesis_cuts_peers(const Spec& spec) { return nemesis_has(spec, &FaultDescriptor::cuts_peers); }

std::optional<std::string> host_refusal(const Spec& spec, const std::filesystem::path& self_exe) {
    const FaultDescriptor* fault = fault_needing_unsynced_data(spec);
    if (!fault) return std::nullopt;
    const auto reason = unsyncedfs_unavailable_reason(find_unsyncedfs_daemon(self_exe));
    if (!reason) return std::nullopt;
    return "fault " + fault->name + " cannot run here: the lose-unsynced filesystem is unavailable: " + *reason;
}

}  // namespace lockcheck
