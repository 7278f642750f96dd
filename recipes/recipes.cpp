#include "recipes/recipes.hpp"

#include <stdexcept>

namespace lockcheck {

namespace {

/// check_recipe_options of recipe `recipe`, whose descriptor is `descriptor` (nullptr: unknown).
void check_options_of(const std::string& recipe, const RecipeDescriptor* descriptor, const nlohmann::json& options) {
    if (!options.is_object()) throw std::invalid_argument("recipe options must be an object");
    for (const auto& [name, value] : options.items()) {
        const OptionDescriptor* option = descriptor ? find_option(descriptor->options, name) : nullptr;
        if (!option) throw std::invalid_argument("recipe '" + recipe + "' has no option '" + name + "'");
        if (const auto problem = option_problem(*option, value, OptionContext{}))
            throw std::invalid_argument("recipe option '" + name + "' " + *problem);
    }
}

}  // namespace

void check_recipe_options(const std::string& recipe, const nlohmann::json& options) {
    check_options_of(recipe, find_recipe(recipe), options);
}

void check_recipe_options(const RecipeDescriptor& recipe, const nlohmann::json& options) {
    check_options_of(recipe.name, &recipe, options);
}

std::unique_ptr<WorkerClient> make_lock_client(const std::string& recipe, const std::vector<std::string>& endpoints,
                                               const ConnectionOptions& connection, const nlohmann::json& options) {
    if (endpoints.empty()) throw std::invalid_argument("recipe '" + recipe + "' needs at least one endpoint");
    const RecipeDescriptor* descriptor = find_recipe(recipe);
    check_options_of(recipe, descriptor, options);
    if (!descriptor) throw std::invalid_argument("unknown recipe '" + recipe + "'");
    return descriptor->make(endpoints, connection, resolve_options(descriptor->options, options, OptionContext{}));
}

}  // namespace lockcheck
