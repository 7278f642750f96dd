// The node runtimes this build knows (spec field `runtime`, flag --runtime):
// one descriptor each, listed in node_runtime_registry.cpp, shown by
// `lockcheck list`. A runtime not listed here is refused by the spec validator.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "clusters/runtimes/node_runtime.hpp"
#include "clusters/network/test_network.hpp"

namespace lockcheck {

inline constexpr const char* kDefaultNodeRuntime = "netns";

struct NodeRuntimeDescriptor {
    std::string name;         ///< spec field runtime, e.g. "netns"
    std::string description;  ///< one line, for `lockcheck list`
    /// The runtime of one node placed at `placement`, its server not started.
    std::function<std::unique_ptr<NodeRuntime>(const NodePlacement& placement)> make;
    /// The test network its nodes need; nullopt: the run's (spec `network`).
    std::optional<NetworkMode> network;
    /// Why it cannot run faults that need the lose-unsynced filesystem
    /// (power-loss); empty when it can.
    std::string refuses_unsynced_data;
    /// Why it cannot run on this machine now (e.g. no daemon answers), or
    /// nullopt; unset: it always can.
    std::function<std::optional<std::string>()> unavailable;
};

/// Every runtime, in the order `lockcheck list` shows them.
const std::vector<NodeRuntimeDescriptor>& node_runtime_descriptors();
/// The runtime called `name`, or nullptr.
const NodeRuntimeDescriptor* find_node_runtime(const std::string& name);
/// "netns" (, "docker" ...): the known names, for messages.
std::string node_runtime_names();
/// The runtime `name` of one node. Throws std::invalid_argument for an unknown name.
std::unique_ptr<NodeRuntime> make_node_runtime(const std::string& name, const NodePlacement& placement);

/// The descriptor of runtime netns (clusters/runtimes/netns_runtime_descriptor.cpp).
NodeRuntimeDescriptor netns_runtime();
/// The descriptor of runtime docker (clusters/runtimes/docker_runtime_descriptor.cpp).
NodeRuntimeDescriptor docker_runtime();
/// The descriptor of runtime ssh (clusters/runtimes/ssh_runtime_descriptor.cpp).
NodeRuntimeDescriptor ssh_runtime();

}  // namespace lockcheck
