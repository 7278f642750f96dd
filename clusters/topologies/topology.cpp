#include "clusters/topologies/topology.hpp"

#include <stdexcept>

#include "clusters/clock_offset.hpp"
#include "clusters/topologies/topology_registry.hpp"
#include "core/interruptible_sleep.hpp"

namespace lockcheck {

std::unique_ptr<Node> make_topology_node(
    const TopologyOptions& options, const TestNetwork& network, int host, const std::string& name,
    const std::function<NodeProgram(const std::filesystem::path& dir, const std::string& address)>& program) {
    const auto dir = options.dir / name;
    // Owner only: the configs in it hold the run's password, and Sentinel
    // rewrites its own with the mode its umask gives.
    std::filesystem::create_directories(dir);
    std::filesystem::permissions(dir, std::filesystem::perms::owner_all);
    auto node_program = program(dir, network.address(host));
    auto data =
        make_node_data_mount(options.unsynced_data, name, dir, node_program.data_dir, node_program.metadata_rule);
    std::vector<std::filesystem::path> shared_paths{dir};
    if (!options.scratch_dir.empty()) shared_paths.push_back(options.scratch_dir);
    if (options.clock_library) {
        // A statically linked server ignores the library: the launcher patches its vDSO instead.
        node_program.launcher = clock_launcher_beside(*options.clock_library);
        shared_paths.push_back(*options.clock_library);
        shared_paths.push_back(*node_program.launcher);
    }
    NodePlacement placement{.name = name,
                            .address = network.address(host),
                            .netns = network.netns(host),
                            .log = Node::log_path(dir),
                            .run_id = network.run_id(),
                            .shared_paths = shared_paths,
                            .image = options.image,
                            .host = std::nullopt};
    if (host < static_cast<int>(options.hosts.size())) placement.host = options.hosts[host];
    std::unique_ptr<NodeRuntime> runtime;
    try {
        runtime = make_node_runtime(options.runtime, placement);
    } catch (const NodeRuntimeError& e) {
        throw NodeStartError("node " + name + ": " + e.what());
    }
    return std::make_unique<Node>(name, std::move(runtime), dir, std::move(node_program),
                                  clock_environment(options.clock_library, dir), options.interrupt, std::move(data));
}

void await_settled(const std::string& topology, const std::stop_token& interrupt, std::chrono::seconds timeout,
                   const std::function<bool()>& settled, const std::function<std::string()>& why_not) {
    if (poll_until(settled, timeout, std::chrono::milliseconds(50), interrupt)) return;
    if (interrupt.stop_requested()) throw NodeStartError("topology " + topology + ": interrupted while starting");
    throw NodeStartError("topology " + topology + " " + why_not());
}

std::vector<Node*> primary_or_all(Topology& topology) {
    if (Node* primary = topology.primary()) return {primary};
    return topology.nodes();
}

namespace {

const TopologyDescriptor& known_topology(const std::string& name) {
    const TopologyDescriptor* topology = find_topology(name);
    if (!topology) throw std::invalid_argument("unknown topology '" + name + "'");
    return *topology;
}

}  // namespace

int topology_node_count(const TopologyOptions& options) { return known_topology(options.name).node_count(options); }

std::unique_ptr<Topology> make_topology(const TopologyOptions& options, const TestNetwork& network) {
    return known_topology(options.name).make(options, network);
}

}  // namespace lockcheck
