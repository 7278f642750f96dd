#include "workloads/redlock.hpp"

namespace lockcheck {

RecipeDescriptor redlock_recipe() {
    return {.name = "redlock",
            .description = "Redlock over 5 independent nodes: quorum 3, validity = TTL - elapsed - drift; no token",
            .topologies = {"redis-independent"},
            .make = construct_client<Redlock>,
            .refuses = [](const SpecView& spec) -> SpecVerdict {
                if (spec.nodes != 0 && spec.nodes < 3)
                    return SpecRefusal{"nodes",
                                       "must be at least 3 for redlock: with fewer, a majority is every node "
                                       "and one crash stops the lock"};
                return std::nullopt;
            }};
}

}  // namespace lockcheck
