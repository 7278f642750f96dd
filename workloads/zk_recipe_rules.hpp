// What the ZooKeeper recipes' descriptors share (zk_ephemeral_descriptor.cpp,
// zk_sequential_descriptor.cpp): the option session_timeout_ms and the spec
// rules that keep the session, which is the lease, as long as ttl_ms.
#pragma once

#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include "core/option_descriptor.hpp"
#include "core/spec_view.hpp"

namespace lockcheck {

/// Option session_timeout_ms: an integer of ms within what the zookeeper
/// topology's servers grant (kZkMinSessionMs..kZkMaxSessionMs); no default
/// (the acquire's ttl_ms).
OptionDescriptor zk_session_timeout_option();

/// session_timeout_ms of resolved options, when set.
std::optional<std::int64_t> zk_session_timeout(const nlohmann::json& options);

/// Refuses a ttl_ms above the servers' maxSessionTimeout, and a
/// session_timeout_ms below ttl_ms (the session would end the lease early).
SpecVerdict zk_recipe_refuses(const SpecView& spec);

}  // namespace lockcheck
