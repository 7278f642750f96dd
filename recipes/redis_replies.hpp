// Helpers shared by the Redis lock recipes: the compare-and-delete release,
// turning a connection outcome into a LockResult, and reading reply values.
#pragma once

#include <optional>
#include <string>

#include "recipes/redis_connection.hpp"
#include "recipes/worker_client.hpp"

namespace lockcheck {

/// Release only your own lock: DEL KEYS[1] if its value is ARGV[1] (the
/// owner). Returns 1 when it deleted, 0 otherwise.
inline constexpr const char* kCompareAndDeleteScript =
    "if redis.call('GET', KEYS[1]) == ARGV[1] then "
    "  return redis.call('DEL', KEYS[1]) "
    "end "
    "return 0";

/// True when the server answered with something other than an error reply.
bool is_usable(const RedisOutcome& outcome);

/// Maps a connection outcome that is not a usable reply to a LockResult:
/// NotSent -> fail, Unknown -> info, error reply -> fail with its text.
LockResult redis_failure(const RedisOutcome& outcome);

/// The reply as a string when it is a (bulk or status) string; nullopt for nil.
std::optional<std::string> reply_string(const redisReply& reply);

/// True for an integer reply equal to `value`.
bool reply_is_integer(const redisReply& reply, long long value);

}  // namespace lockcheck
