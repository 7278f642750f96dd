#include "core/option_kinds.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <sstream>

#include "core/json_integer.hpp"

namespace lockcheck {

std::string choice_list(const std::vector<std::string>& choices) {
    std::string text;
    for (std::size_t i = 0; i < choices.size(); ++i)
        text += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + choices[i];
    return text;
}

OptionDescriptor integer_option(std::string name, std::string description, nlohmann::json default_value,
                                std::int64_t min, std::int64_t max) {
    std::string form = max == std::numeric_limits<std::int64_t>::max()
                           ? "must be an integer >= " + std::to_string(min)
                           : "must be an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
    return {std::move(name), std::move(description), std::move(default_value), std::move(form),
            [min, max](const nlohmann::json& given) -> std::optional<nlohmann::json> {
                const auto value = json_integer<std::int64_t>(given);
                if (!value || *value < min || *value > max) return std::nullopt;
                return *value;
            }};
}

OptionDescriptor number_option(std::string name, std::string description, double default_value, double min,
                               double max) {
    std::ostringstream form;
    form << "must be a number in [" << min << ", " << max << "]";
    return {std::move(name), std::move(description), default_value, form.str(),
            [min, max](const nlohmann::json& given) -> std::optional<nlohmann::json> {
                if (!given.is_number()) return std::nullopt;
                const double value = given.get<double>();
                if (!std::isfinite(value) || value < min || value > max) return std::nullopt;
                return value;
            }};
}

OptionDescriptor boolean_option(std::string name, std::string description, bool default_value) {
    return {std::move(name), std::move(description), default_value, "must be true or false",
            [](const nlohmann::json& given) -> std::optional<nlohmann::json> {
                if (!given.is_boolean()) return std::nullopt;
                return given;
            }};
}

OptionDescriptor with_bound(OptionDescriptor option, std::function<bool(const nlohmann::json& value)> within,
                            std::string problem) {
    option.check = [earlier = std::move(option.check), within = std::move(within), problem = std::move(problem)](
                       const nlohmann::json& value, const OptionContext& context) -> OptionProblem {
        if (earlier)
            if (auto found = earlier(value, context)) return found;
        if (within(value)) return std::nullopt;
        return problem;
    };
    return option;
}

OptionDescriptor choice_option(std::string name, std::string description, std::string default_value,
                               std::vector<std::string> choices) {
    std::string problem = "must be " + choice_list(choices);
    OptionDescriptor text{std::move(name), std::move(description), std::move(default_value), "must be a string",
                          [](const nlohmann::json& given) -> std::optional<nlohmann::json> {
                              if (!given.is_string()) return std::nullopt;
                              return given;
                          }};
    return with_bound(
        std::move(text),
        [choices = std::move(choices)](const nlohmann::json& value) {
            return std::find(choices.begin(), choices.end(), value.get<std::string>()) != choices.end();
        },
        std::move(problem));
}

OptionDescriptor ttl_time_option(std::string name, std::string description, TtlTime default_value, bool negative_ms,
                                 std::function<OptionProblem(std::int64_t resolved_ms)> resolved_problem) {
    OptionDescriptor option{std::move(name), std::move(description), default_value.to_json(),
                            negative_ms ? "must be milliseconds (an integer, negative for back) or a finite "
                                          "multiple of the TTL like \"2xttl\" or \"-2xttl\""
                                        : "must be milliseconds (an integer >= 0) or a finite multiple of the TTL "
                                          "like \"2xttl\"",
                            [negative_ms](const nlohmann::json& given) -> std::optional<nlohmann::json> {
                                const auto time = ttl_time_from_json(given, negative_ms);
                                if (!time) return std::nullopt;
                                return time->to_json();
                            }};
    option.check = [resolved_problem = std::move(resolved_problem), negative_ms](
                       const nlohmann::json& value, const OptionContext& context) -> OptionProblem {
        const auto time = ttl_time_from_json(value, negative_ms);
        if (time->ttl_factor && !(std::abs(*time->ttl_factor) <= kMaxTtlFactor))
            return "must be at most " + std::to_string(static_cast<int>(kMaxTtlFactor)) + "xttl" +
                   (negative_ms ? " either way" : "");
        const std::int64_t resolved = time->resolve(context.ttl_ms);
        auto problem = resolved_problem(resolved);
        if (problem && time->ttl_factor)  // the user may never have written this value: say what it came from
            *problem += " (" + time->to_json().get<std::string>() + " of ttl_ms " + std::to_string(context.ttl_ms) + " is " +
                        std::to_string(resolved) + " ms)";
        return problem;
    };
    option.resolve = [negative_ms](const nlohmann::json& value, const OptionContext& context) -> nlohmann::json {
        return ttl_time_from_json(value, negative_ms)->resolve(context.ttl_ms);
    };
    return option;
}

}  // namespace lockcheck
