#include <chrono>

#include "core/option_kinds.hpp"
#include "recipes/redis_setnx_expire.hpp"

namespace lockcheck {
namespace {

/// The largest expire_gap_ms: the worker sleeps that long inside an acquire.
constexpr std::int64_t kMaxExpireGapMs = 3'600'000;

}  // namespace

RecipeDescriptor redis_setnx_expire_recipe() {
    return {.name = "redis-setnx-expire",
            .description = "SETNX key owner, then PEXPIRE as a second command (a crash between leaves no TTL)",
            .topologies = {"redis-single"},
            .options = {integer_option("expire_gap_ms", "the wait between SETNX and PEXPIRE, in ms",
                                       RedisSetNxExpire::kDefaultExpireGap.count(), 0, kMaxExpireGapMs)},
            .make = [](const std::vector<std::string>& endpoints, const ConnectionOptions& connection,
                       const nlohmann::json& options) -> std::unique_ptr<WorkerClient> {
                return std::make_unique<RedisSetNxExpire>(
                    endpoints.front(), connection,
                    std::chrono::milliseconds(options.at("expire_gap_ms").get<std::int64_t>()));
            }};
}

}  // namespace lockcheck
