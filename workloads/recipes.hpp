// The lock recipes this build knows, by name.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "workloads/lock_client.hpp"

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

/// A client of `recipe` connected to the topology's `endpoints`, with
/// `timeout` per server call. Throws std::invalid_argument for an unknown recipe.
std::unique_ptr<LockClient> make_lock_client(const std::string& recipe, const std::vector<std::string>& endpoints,
                                             std::chrono::milliseconds timeout);

}  // namespace lockcheck
