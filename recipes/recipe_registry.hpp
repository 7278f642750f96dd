// The lock recipes this build knows: one descriptor each
// (recipes/recipe_descriptor.hpp), listed in recipe_registry.cpp.
#pragma once

#include <string>
#include <vector>

#include "recipes/recipe_descriptor.hpp"

namespace lockcheck {

/// Every recipe, in the order `lockcheck list` shows them.
const std::vector<RecipeDescriptor>& recipe_descriptors();
/// The recipe called `name`, or nullptr.
const RecipeDescriptor* find_recipe(const std::string& name);

}  // namespace lockcheck
