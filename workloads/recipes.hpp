// The lock recipes this build knows, by name.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "workloads/connection_options.hpp"
#include "workloads/worker_client.hpp"

namespace lockcheck {

struct RecipeInfo {
    std::string name;
    std::string description;  ///< one line
    std::vector<std::string> topologies;  ///< topologies it runs on
    std::vector<std::string> supports = {};  ///< protocol capabilities, e.g. "fencing" (acquire returns tokens)
};

const std::vector<RecipeInfo>& recipes();
/// nullptr when unknown.
const RecipeInfo* find_recipe(const std::string& name);

/// Throws std::invalid_argument naming an option `recipe` does not know, or a
/// bad value. Known: redis-setnx-expire {"expire_gap_ms": integer >= 0},
/// mysql-table-record {"cleanup": bool}, mysql-for-update {"resource":
/// "inside" | "outside"}, mysql-stock-decrement {"stock": integer >= 0}.
void check_recipe_options(const std::string& recipe, const nlohmann::json& options);

/// A client of `recipe` connected to the topology's `endpoints`, with
/// connection.timeout per server call, logging in with connection.login
/// (Redis and MariaDB recipes), and the recipe's `options` (spec field
/// recipe_options; docs/spec.md lists them). Throws std::invalid_argument for
/// an unknown recipe or a bad option.
std::unique_ptr<WorkerClient> make_lock_client(const std::string& recipe, const std::vector<std::string>& endpoints,
                                             const ConnectionOptions& connection,
                                             const nlohmann::json& options = nlohmann::json::object());

}  // namespace lockcheck
