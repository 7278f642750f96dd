// Recipe "redlock": the Redis documentation's distributed lock over N
// independent redis-server nodes (topology redis-independent, N = 5).
//
// acquire: up to kAttempts attempts. Each attempt: SET key owner NX PX ttl on
//   every node in turn (each call bounded by the server timeout); elapsed is
//   the time the attempt took; validity = ttl - elapsed - drift, with
//   drift = ttl / 100 + 2 ms. Success when a majority (N/2 + 1) said OK and
//   validity > 0 (with option validity_check false, the default being true: a
//   majority alone, however late its replies came; the mistake the algorithm's
//   validity rule exists to prevent, kept to show what it costs). Otherwise release on every node (including those that failed
//   or timed out, since the SET may have landed) and, unless a majority
//   answered "held" (someone else has it), retry after a random delay of
//   0..kRetryDelayMax. After the last attempt: fail "validity expired while
//   acquiring" when some attempt had a majority but no validity left (its
//   replies came too late, e.g. under slow-reply), else fail "held". Each
//   round with a majority and no validity left is logged to stderr (the
//   worker's log): "redlock: attempt N had a majority after X ms: no validity
//   left (...); releasing", or "taken anyway (validity_check false)".
// release: compare-and-delete (Lua) on every node; ok if any node deleted it.
// Token: none. A fencing token must grow with every grant of the lock, but no
//   Redlock quorum agrees on a counter: per-node INCR counters differ, a node
//   restarted without persistence starts again at 0, and two overlapping
//   grants (the failure Redlock has) would happily take the same "max of the
//   majority". So acquire reports no token, and fencing cannot be turned on.
// Promise: mutual exclusion while the holder finishes within its validity,
//   nodes keep their data across restarts, and clocks advance at the same
//   rate. Breaks when a node of the majority loses the key (crash with
//   persistence none, restarted before the TTL), or a node's clock jumps.
#pragma once

#include <chrono>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "recipes/lock_client.hpp"
#include "recipes/recipe_descriptor.hpp"
#include "recipes/redis_connection.hpp"

namespace lockcheck {

class Redlock : public LockClient {
public:
    static constexpr int kAttempts = 3;
    static constexpr std::chrono::milliseconds kRetryDelayMax{50};

    /// `check_validity`: recipe option validity_check (see above).
    Redlock(const std::vector<std::string>& endpoints, const ConnectionOptions& connection, bool check_validity);
    LockResult acquire(const LockRequest& request) override;
    LockResult release(const LockRequest& request) override;

private:
    struct Votes {
        int ok = 0;
        int held = 0;
    };
    std::vector<std::unique_ptr<RedisConnection>> nodes_;
    std::mt19937_64 rng_;
    bool check_validity_;

    Votes try_once(const LockRequest& request);
    /// Compare-and-delete on every node; how many deleted it, how many answered.
    std::pair<int, int> release_everywhere(const LockRequest& request);
    int quorum() const { return static_cast<int>(nodes_.size()) / 2 + 1; }
};

/// The descriptor of this recipe (recipes/redlock_descriptor.cpp).
RecipeDescriptor redlock_recipe();

}  // namespace lockcheck
