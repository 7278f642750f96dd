#include "recipes/recipes.hpp"

#include <stdexcept>

namespace lockcheck {

void check_recipe_options(const std::string& recipe, const nlohmann::json& options) {
    if (!options.is_object()) throw std::invalid_argument("recipe options must be an object");
    const RecipeDescriptor* descriptor = find_recipe(recipe);
    for (const auto& [name, value] : options.items()) {
        const OptionDescriptor* option = descriptor ? find_option(descriptor->options, name) : nullptr;
        if (!option) throw std::invalid_argument("recipe '" + recipe + "' has no option '" + name + "'");
        if (const auto problem = option_problem(*option, value, OptionContext{}))
            throw std::invalid_argument("recipe option '" + name + "' " + *problem);
    }
}

std::unique_ptr<WorkerClient> make_lock_client(const std::string& recipe, const std::vector<std::string>& endpoints,
                                               const ConnectionOptions& connection, const nlohmann::json& options) {
    if (endpoints.empty()) throw std::invalid_argument("recipe '" + recipe + "' needs at least one endpoint");
    check_recipe_options(recipe, options);
    const RecipeDescriptor* descriptor = find_recipe(recipe);
    if (!descriptor) throw std::invalid_argument("unknown recipe '" + recipe + "'");
    return descriptor->make(endpoints, connection, resolve_options(descriptor->options, options, OptionContext{}));
}

}  // namespace lockcheck
