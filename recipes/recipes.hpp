// Checking a recipe's options and building its client, by recipe name,
// through the recipe registry (recipes/recipe_registry.hpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "recipes/connection_options.hpp"
#include "recipes/recipe_registry.hpp"
#include "recipes/worker_client.hpp"

namespace lockcheck {

/// Throws std::invalid_argument naming an option `recipe` does not declare
/// (RecipeDescriptor::options), or a bad value ("recipe option 'stock' must
/// be ..."). Recipe options are checked without the run's lease
/// (OptionContext::ttl_ms is 0): a rule between an option and ttl_ms belongs
/// in the recipe's RecipeDescriptor::refuses.
void check_recipe_options(const std::string& recipe, const nlohmann::json& options);
/// check_recipe_options of a recipe already looked up.
void check_recipe_options(const RecipeDescriptor& recipe, const nlohmann::json& options);

/// A client of `recipe` connected to the topology's `endpoints`, with
/// connection.timeout per server call, logging in with connection.login
/// (Redis and MariaDB recipes), and the recipe's `options` (spec field
/// recipe_options; docs/spec.md lists them), defaults filled in. Throws
/// std::invalid_argument for an unknown recipe or a bad option.
std::unique_ptr<WorkerClient> make_lock_client(const std::string& recipe, const std::vector<std::string>& endpoints,
                                               const ConnectionOptions& connection,
                                               const nlohmann::json& options = nlohmann::json::object());

}  // namespace lockcheck
