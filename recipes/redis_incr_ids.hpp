// Recipe "redis-incr-ids": not a lock but the id generator Redis is often
// used as (a UniqueIdClient, capability "unique-ids", driven by
// workers/unique_ids_workload.hpp, judged by checkers/unique_ids.hpp).
//
// generate_id: INCR key:ids (recipes/id_counter_key.hpp) on the primary;
//              the integer reply is the id: ok {"id": N}. Could not connect
//              or an error reply (READONLY, LOADING): fail, no id was
//              issued; connection lost or timed out after sending: info.
// On a redis-sentinel topology it asks the sentinels for the primary before
// each id (recipes/redis_primary.hpp).
// Promise: every id is new while the counter survives. Breaks when the
// server forgets acknowledged INCRs: a restart without persistence, a crash
// that loses what was not yet fsynced, a failover to a replica that had not
// received them.
#pragma once

#include <string>
#include <vector>

#include "recipes/recipe_descriptor.hpp"
#include "recipes/redis_primary.hpp"
#include "recipes/unique_id_client.hpp"

namespace lockcheck {

class RedisIncrIds : public UniqueIdClient {
public:
    /// `endpoints`: one server, or the sentinels of a redis-sentinel topology.
    RedisIncrIds(const std::vector<std::string>& endpoints, const ConnectionOptions& connection);
    LockResult generate_id(const std::string& key) override;

private:
    RedisPrimary connection_;
};

/// The descriptor of this recipe (recipes/redis_incr_ids_descriptor.cpp).
RecipeDescriptor redis_incr_ids_recipe();

}  // namespace lockcheck
