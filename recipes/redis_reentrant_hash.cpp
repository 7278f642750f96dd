#include "recipes/redis_reentrant_hash.hpp"

#include "recipes/fence_key.hpp"
#include "recipes/redis_replies.hpp"

namespace lockcheck {
namespace {

// KEYS[1] lock hash, KEYS[2] fence counter; ARGV[1] ttl ms, ARGV[2] owner.
// Owners look like "w3-17", so the "fence" field never collides with one.
constexpr const char* kReentrantAcquireScript =
    "if redis.call('EXISTS', KEYS[1]) == 0 then "
    "  redis.call('HINCRBY', KEYS[1], ARGV[2], 1) "
    "  redis.call('PEXPIRE', KEYS[1], ARGV[1]) "
    "  local token = redis.call('INCR', KEYS[2]) "
    "  redis.call('HSET', KEYS[1], 'fence', token) "
    "  return token "
    "end "
    "if redis.call('HEXISTS', KEYS[1], ARGV[2]) == 1 then "
    "  redis.call('HINCRBY', KEYS[1], ARGV[2], 1) "
    "  redis.call('PEXPIRE', KEYS[1], ARGV[1]) "
    "  return tonumber(redis.call('HGET', KEYS[1], 'fence')) "
    "end "
    "return false";

// Returns nil for a non-owner, 1 when the lock was deleted, 0 when still entered.
constexpr const char* kReleaseScript =
    "if redis.call('HEXISTS', KEYS[1], ARGV[2]) == 0 then return false end "
    "local counter = redis.call('HINCRBY', KEYS[1], ARGV[2], -1) "
    "if counter > 0 then "
    "  if tonumber(ARGV[1]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end "
    "  return 0 "
    "end "
    "redis.call('DEL', KEYS[1]) "
    "return 1";

constexpr const char* kRenewScript =
    "if redis.call('HEXISTS', KEYS[1], ARGV[2]) == 1 then "
    "  return redis.call('PEXPIRE', KEYS[1], ARGV[1]) "
    "end "
    "return 0";

}  // namespace

RedisReentrantHash::RedisReentrantHash(const std::string& endpoint, const ConnectionOptions& connection)
    : connection_(endpoint, connection) {}

LockResult RedisReentrantHash::acquire(const LockRequest& request) {
    auto outcome = connection_.command({"EVAL", kReentrantAcquireScript, "2", request.key, fence_key(request.key),
                                        std::to_string(request.ttl_ms), request.owner});
    if (!is_usable(outcome)) return redis_failure(outcome);
    if (outcome.reply->type == REDIS_REPLY_INTEGER) return LockResult::ok(outcome.reply->integer);
    return LockResult::fail(std::string(err::kHeld));
}

LockResult RedisReentrantHash::release(const LockRequest& request) {
    auto outcome =
        connection_.command({"EVAL", kReleaseScript, "1", request.key, std::to_string(request.ttl_ms), request.owner});
    if (!is_usable(outcome)) return redis_failure(outcome);
    if (outcome.reply->type != REDIS_REPLY_INTEGER) return LockResult::fail(std::string(err::kNotOwner));
    LockResult result = LockResult::ok();
    result.value = {{"still_entered", outcome.reply->integer == 0}};
    return result;
}

LockResult RedisReentrantHash::renew(const LockRequest& request) {
    auto outcome =
        connection_.command({"EVAL", kRenewScript, "1", request.key, std::to_string(request.ttl_ms), request.owner});
    if (!is_usable(outcome)) return redis_failure(outcome);
    if (reply_is_integer(*outcome.reply, 1)) return LockResult::ok();
    return LockResult::fail(std::string(err::kNotOwner));
}

}  // namespace lockcheck
