#include "recipes/zk_recipe_descriptor.hpp"

#include <string>

#include "core/option_kinds.hpp"
#include "recipes/zk_lease.hpp"

namespace lockcheck {

OptionDescriptor zk_session_timeout_option() {
    return with_bound(
        integer_option("session_timeout_ms",
                       "the ZooKeeper session timeout (the lease), at least ttl_ms; unset: ttl_ms", nullptr, 0),
        [](const nlohmann::json& value) {
            const auto ms = value.get<std::int64_t>();
            return ms >= kZkMinSessionMs && ms <= kZkMaxSessionMs;
        },
        "must be within [" + std::to_string(kZkMinSessionMs) + ", " + std::to_string(kZkMaxSessionMs) +
            "] ms, the session timeouts the zookeeper topology's servers grant");
}

std::optional<std::int64_t> zk_session_timeout(const nlohmann::json& options) {
    const auto it = options.find("session_timeout_ms");
    if (it == options.end()) return std::nullopt;
    return it->get<std::int64_t>();
}

SpecVerdict zk_recipe_refuses(const SpecView& spec) {
    // The session is the lease: the servers grant at most maxSessionTimeout (docs/recipes/zk-ephemeral.md).
    if (spec.ttl_ms > kZkMaxSessionMs)
        return SpecRefusal{"ttl_ms", "must be at most " + std::to_string(kZkMaxSessionMs) +
                                         " for ZooKeeper recipes (the servers' maxSessionTimeout)"};
    if (spec.recipe_options.value("session_timeout_ms", spec.ttl_ms) < spec.ttl_ms)
        return SpecRefusal{"recipe_options",
                           "session_timeout_ms must be >= ttl_ms: a shorter session would end the lease early"};
    return std::nullopt;
}

}  // namespace lockcheck
