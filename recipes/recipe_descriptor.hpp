// Everything lockcheck knows about one lock recipe, in one value: its name,
// what it does, the topologies it runs on, the capabilities its workers
// announce, its options (keys of the spec's recipe_options) with their
// defaults and bounds, its factory, and which specs it cannot run and why.
// Each recipe defines its descriptor in its own file
// (recipes/NAME_descriptor.cpp) and is listed once in
// recipes/recipe_registry.cpp; nothing else names it.
#pragma once

#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/option_descriptor.hpp"
#include "core/spec_view.hpp"
#include "recipes/connection_options.hpp"
#include "recipes/worker_client.hpp"

namespace lockcheck {

struct RecipeDescriptor {
    std::string name;                     ///< spec field recipe, e.g. "redlock"
    std::string description;              ///< one line, for `lockcheck list`
    std::vector<std::string> topologies;  ///< the topologies it runs on
    /// Protocol capabilities every client of it announces (core/capabilities.hpp).
    std::vector<std::string> supports = {};
    /// Its options: the keys recipe_options may set.
    std::vector<OptionDescriptor> options = {};
    /// A client connected to the topology's `endpoints` (at least one), with
    /// connection.timeout per server call and connection.login, and
    /// `options` resolved (core/option_descriptor.hpp: every option set or
    /// with a default is present).
    std::function<std::unique_ptr<WorkerClient>(const std::vector<std::string>& endpoints,
                                                const ConnectionOptions& connection, const nlohmann::json& options)>
        make;
    /// Why it cannot run `spec` (e.g. too few nodes for its quorum), or
    /// nullopt. Empty: it runs every spec on its topologies.
    std::function<SpecVerdict(const SpecView& spec)> refuses = {};
};

/// RecipeDescriptor::make of a client class constructed from (endpoints,
/// connection), for a recipe without options.
template <typename Client>
std::unique_ptr<WorkerClient> construct_client(const std::vector<std::string>& endpoints,
                                               const ConnectionOptions& connection, const nlohmann::json&) {
    return std::make_unique<Client>(endpoints, connection);
}

/// RecipeDescriptor::make of a client class constructed from (the first
/// endpoint, connection): a recipe on one server, without options.
template <typename Client>
std::unique_ptr<WorkerClient> construct_single_server_client(const std::vector<std::string>& endpoints,
                                                             const ConnectionOptions& connection,
                                                             const nlohmann::json&) {
    return std::make_unique<Client>(endpoints.front(), connection);
}

/// RecipeDescriptor::supports from capability constants.
inline std::vector<std::string> capabilities(std::initializer_list<std::string_view> names) {
    return {names.begin(), names.end()};
}

}  // namespace lockcheck
