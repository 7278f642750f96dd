#include "core/option_kinds.hpp"
#include "recipes/redlock.hpp"

namespace lockcheck {

RecipeDescriptor redlock_recipe() {
    return {.name = "redlock",
            .description = "Redlock over 5 independent nodes: quorum 3, validity = TTL - elapsed - drift; no token",
            .topologies = {"redis-independent"},
            .options = {boolean_option("validity_check",
                                       "take the lock only while validity (TTL - elapsed - drift) is left, as the "
                                       "algorithm prescribes; false: on a majority alone, however late it came",
                                       true)},
            .make = [](const std::vector<std::string>& endpoints, const ConnectionOptions& connection,
                       const nlohmann::json& options) -> std::unique_ptr<WorkerClient> {
                return std::make_unique<Redlock>(endpoints, connection, options.at("validity_check").get<bool>());
            },
            .refuses = [](const SpecView& spec) -> SpecVerdict {
                if (spec.nodes != 0 && spec.nodes < 3)
                    return SpecRefusal{"nodes",
                                       "must be at least 3 for redlock: with fewer, a majority is every node "
                                       "and one crash stops the lock"};
                return std::nullopt;
            }};
}

}  // namespace lockcheck
