#include "core/capabilities.hpp"
#include "core/option_kinds.hpp"
#include "recipes/snowflake_ids.hpp"

namespace lockcheck {
namespace {

/// The largest max_wait_ms: a wait longer than the op timeout gets the worker replaced.
constexpr std::int64_t kMaxSnowflakeWaitMs = 60'000;

/// What both recipes share: they talk to no server, but a run still starts
/// a topology, and one idle Redis is the cheapest (docs/recipes/snowflake-ids.md).
RecipeDescriptor snowflake_recipe(std::string name, std::string description) {
    return {.name = std::move(name),
            .description = std::move(description),
            .topologies = {"redis-single"},
            .supports = capabilities({capability::kUniqueIds}),
            .make = {}};  // set by each recipe
}

}  // namespace

RecipeDescriptor snowflake_ids_recipe() {
    RecipeDescriptor recipe = snowflake_recipe(
        "snowflake-ids",
        "not a lock, no server: Snowflake ids (41-bit ms timestamp, 10-bit worker id, 12-bit sequence) from each "
        "worker's wall clock; reuses timestamps when the clock goes back");
    recipe.make = [](const std::vector<std::string>&, const ConnectionOptions& connection,
                     const nlohmann::json&) -> std::unique_ptr<WorkerClient> {
        // Its only wait, for the next ms after 4096 ids in one, is bounded like a server call.
        return std::make_unique<SnowflakeIds>(connection.process, SnowflakeGenerator::Backward::Reuse,
                                              connection.timeout);
    };
    return recipe;
}

RecipeDescriptor snowflake_ids_guarded_recipe() {
    RecipeDescriptor recipe = snowflake_recipe(
        "snowflake-ids-guarded",
        "snowflake-ids that, while its clock is behind the last timestamp it used, waits up to max_wait_ms and then "
        "refuses (fail)");
    recipe.options = {integer_option("max_wait_ms",
                                     "how long a generate-id waits for a clock that went back to catch up before it "
                                     "refuses, in ms (0: refuse at once)",
                                     1000, 0, kMaxSnowflakeWaitMs)};
    recipe.make = [](const std::vector<std::string>&, const ConnectionOptions& connection,
                     const nlohmann::json& options) -> std::unique_ptr<WorkerClient> {
        return std::make_unique<SnowflakeIds>(connection.process, SnowflakeGenerator::Backward::Guard,
                                              std::chrono::milliseconds(options.at("max_wait_ms").get<std::int64_t>()));
    };
    return recipe;
}

}  // namespace lockcheck
