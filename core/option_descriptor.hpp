// One setting of a fault or a recipe, described once: its name, what it
// means, its default, what form a value must have and what bounds it must
// keep, and what its factory gets. Faults declare theirs as top-level spec
// fields (e.g. restart_delay_ms), recipes as keys of recipe_options; the spec
// reads, checks, writes and lists them through these descriptors alone.
// core/option_kinds.hpp builds the common kinds (integers, booleans, choices,
// times relative to the lease).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lockcheck {

/// The run an option's value is checked for and resolved against.
struct OptionContext {
    std::int64_t ttl_ms = 0;  ///< the run's lease (spec field ttl_ms): "Nxttl" values resolve against it
};

/// Why a value is refused, worded to follow the option's name ("must be ..."),
/// or nullopt when it is accepted.
using OptionProblem = std::optional<std::string>;

struct OptionDescriptor {
    std::string name;         ///< the JSON field, e.g. "restart_delay_ms"
    std::string description;  ///< one line, for `lockcheck list`
    /// Its value when the spec does not set it, in stored form; null: none
    /// (the option is absent unless set, and the factory decides).
    nlohmann::json default_value;
    /// What a value must look like, worded to follow the name: "must be a string".
    std::string form;
    /// The stored form of `given` (the spec writes it back like this), or
    /// nullopt when `given` does not have `form`.
    std::function<std::optional<nlohmann::json>(const nlohmann::json& given)> read;
    /// Why `value` (as read() returned it) is out of bounds for the run, or
    /// nullopt. Empty: every value read() accepts is within bounds.
    std::function<OptionProblem(const nlohmann::json& value, const OptionContext& context)> check = {};
    /// The value the factory gets for `value` (e.g. "2xttl" as milliseconds).
    /// Empty: `value` itself.
    std::function<nlohmann::json(const nlohmann::json& value, const OptionContext& context)> resolve = {};
};

/// The option called `name` among `options`, or nullptr.
const OptionDescriptor* find_option(const std::vector<OptionDescriptor>& options, const std::string& name);

/// Why `value` is not a value of `option` for a run with `context`: its
/// form, else its bounds; nullopt when it is one.
OptionProblem option_problem(const OptionDescriptor& option, const nlohmann::json& value, const OptionContext& context);

/// What a factory gets: every option of `options` that `values` (an object
/// of values) sets or that has a default, read and resolved against
/// `context`. Throws std::invalid_argument for a value of the wrong form
/// (values that passed option_problem never are).
nlohmann::json resolve_options(const std::vector<OptionDescriptor>& options, const nlohmann::json& values,
                               const OptionContext& context);

/// Every option of `options` that has a default, with it: the values a spec
/// holds before it sets any.
nlohmann::json default_options(const std::vector<OptionDescriptor>& options);

}  // namespace lockcheck
