#include "core/capabilities.hpp"
#include "core/option_kinds.hpp"
#include "workloads/snowflake_ids.hpp"

namespace lockcheck {
namespace {

/// The largest max_wait_ms: a wait longer than the op timeout gets the worker replaced.
constexpr std::int64_t kMaxSnowflakeWaitMs = 60'000;

/// Both generators talk to no server. A run still starts a topology; one
/// idle Redis is the cheapest (docs/recipes/snowflake-ids.md).
const std::vector<std::string> kSnowflakeTopologies = {"redis-single"};

}  // namespace

RecipeDescriptor snowflake_ids_recipe() {
    return {.name = "snowflake-ids",
            .description =
                "not a lock, no server: Snowflake ids (41-bit ms timestamp, 10-bit worker id, 12-bit "
                "sequence) from each worker's wall clock; reuses timestamps when the clock goes back",
            .topologies = kSnowflakeTopologies,
            .supports = capabilities({capability::kUniqueIds}),
            .make = [](const std::vector<std::string>&, const ConnectionOptions& connection,
                       const nlohmann::json&) -> std::unique_ptr<WorkerClient> {
                // Its only wait, for the next ms after 4096 ids in one, is bounded like a server call.
                return std::make_unique<SnowflakeIds>(connection.process, SnowflakeGenerator::Backward::Reuse,
                                                      connection.timeout);
            }};
}

RecipeDescriptor snowflake_ids_guarded_recipe() {
    return {.name = "snowflake-ids-guarded",
            .description =
                "snowflake-ids that, while its clock is behind the last timestamp it used, waits up to "
                "max_wait_ms and then refuses (fail)",
            .topologies = kSnowflakeTopologies,
            .supports = capabilities({capability::kUniqueIds}),
            .options = {integer_option("max_wait_ms",
                                       "how long a generate-id waits for a clock that went back to catch up before "
                                       "it refuses, in ms (0: refuse at once)",
                                       1000, 0, kMaxSnowflakeWaitMs)},
            .make = [](const std::vector<std::string>&, const ConnectionOptions& connection,
                       const nlohmann::json& options) -> std::unique_ptr<WorkerClient> {
                return std::make_unique<SnowflakeIds>(
                    connection.process, SnowflakeGenerator::Backward::Guard,
                    std::chrono::milliseconds(options.at("max_wait_ms").get<std::int64_t>()));
            }};
}

}  // namespace lockcheck
