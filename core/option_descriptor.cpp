#include "core/option_descriptor.hpp"

#include <stdexcept>

#include "core/find_by_name.hpp"

namespace lockcheck {

const OptionDescriptor* find_option(const std::vector<OptionDescriptor>& options, const std::string& name) {
    return find_by_name(options, name);
}

OptionProblem option_problem(const OptionDescriptor& option, const nlohmann::json& value,
                             const OptionContext& context) {
    const auto stored = option.read(value);
    if (!stored) return option.form;
    return option.check ? option.check(*stored, context) : std::nullopt;
}

nlohmann::json resolve_options(const std::vector<OptionDescriptor>& options, const nlohmann::json& values,
                               const OptionContext& context) {
    nlohmann::json resolved = nlohmann::json::object();
    for (const auto& option : options) {
        const auto it = values.find(option.name);
        const nlohmann::json& value = it != values.end() ? *it : option.default_value;
        if (value.is_null()) continue;
        const auto stored = option.read(value);
        if (!stored) throw std::invalid_argument("option '" + option.name + "' " + option.form);
        resolved[option.name] = option.resolve ? option.resolve(*stored, context) : *stored;
    }
    return resolved;
}

nlohmann::json default_options(const std::vector<OptionDescriptor>& options) {
    nlohmann::json defaults = nlohmann::json::object();
    for (const auto& option : options)
        if (!option.default_value.is_null()) defaults[option.name] = option.default_value;
    return defaults;
}

}  // namespace lockcheck
