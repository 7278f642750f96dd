// What the descriptors of topologies, recipes and faults see of a run spec
// when they judge a combination: the harness fills it from the resolved spec
// (spec/spec.hpp), so lower folders can refuse a spec without knowing it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lockcheck {

struct SpecView {
    const std::string& recipe;
    const std::string& topology;
    std::int64_t ttl_ms;
    int nodes;                                ///< spec field nodes (0: the topology's default)
    const std::vector<std::string>& nemesis;  ///< the fault kinds of the run
    const nlohmann::json& recipe_options;     ///< as the spec sets them (already checked against the recipe)
    const nlohmann::json& fault_options;      ///< every fault option, keyed by field (already checked)
};

/// Why a spec is refused: the field to name and the reason, worded to follow
/// "field 'F' " ("must be at least 3 for redlock: ...").
struct SpecRefusal {
    std::string field;
    std::string reason;
};

/// What a descriptor says of a spec: nullopt when it can run it.
using SpecVerdict = std::optional<SpecRefusal>;

}  // namespace lockcheck
