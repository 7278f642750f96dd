// What the ZooKeeper recipes' descriptors share (zk_ephemeral_descriptor.cpp,
// zk_sequential_descriptor.cpp): the topology, fencing by czxid, the option
// session_timeout_ms and the spec rules that keep the session, which is the
// lease, as long as ttl_ms.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/capabilities.hpp"
#include "core/option_descriptor.hpp"
#include "core/spec_view.hpp"
#include "recipes/recipe_descriptor.hpp"

namespace lockcheck {

/// Option session_timeout_ms: an integer of ms within what the zookeeper
/// topology's servers grant (kZkMinSessionMs..kZkMaxSessionMs); no default
/// (the acquire's ttl_ms).
OptionDescriptor zk_session_timeout_option();

/// session_timeout_ms of resolved options, when set.
std::optional<std::int64_t> zk_session_timeout(const nlohmann::json& options);

/// Refuses a ttl_ms above the servers' maxSessionTimeout, and a
/// session_timeout_ms below ttl_ms (the session would end the lease early).
SpecVerdict zk_recipe_refuses(const SpecView& spec);

/// The descriptor of ZooKeeper recipe `name`, whose client class is built
/// from (endpoints, call timeout, session_timeout_ms): on topology zookeeper,
/// fencing (the czxid), option session_timeout_ms, zk_recipe_refuses.
template <typename ZkClient>
RecipeDescriptor zk_recipe(std::string name, std::string description) {
    return {.name = std::move(name),
            .description = std::move(description),
            .topologies = {"zookeeper"},
            .supports = capabilities({capability::kFencing}),
            .options = {zk_session_timeout_option()},
            .make = [](const std::vector<std::string>& endpoints, const ConnectionOptions& connection,
                       const nlohmann::json& options) -> std::unique_ptr<WorkerClient> {
                return std::make_unique<ZkClient>(endpoints, connection.timeout, zk_session_timeout(options));
            },
            .refuses = zk_recipe_refuses};
}

}  // namespace lockcheck
