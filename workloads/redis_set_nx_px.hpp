// Recipe "redis-set-nx-px": the single-instance Redis lock of the Redis docs.
//
// acquire: SET key owner NX PX ttl. The fencing token comes from a counter
//          (key + ":fence") incremented in the same Lua script, so tokens grow
//          in grant order (Redis has no token of its own; see docs/recipes/).
// release: compare-and-delete in Lua (GET == owner then DEL), so a client
//          never deletes a lock someone else holds.
// Promise: mutual exclusion while the holder finishes within its TTL on one
// healthy server. Breaks when the holder pauses past its TTL (the lease
// expires under it) - the case fencing tokens exist for.
#pragma once

#include <chrono>
#include <string>

#include "workloads/lock_client.hpp"
#include "workloads/redis_connection.hpp"
#include "workloads/redis_replies.hpp"

namespace lockcheck {

class RedisSetNxPx : public LockClient {
public:
    RedisSetNxPx(const std::string& endpoint, std::chrono::milliseconds timeout);
    LockResult acquire(const LockRequest& request) override;
    LockResult release(const LockRequest& request) override;

protected:  // recipes that vary one step of this one reuse the others
    RedisConnection connection_;
};

}  // namespace lockcheck
