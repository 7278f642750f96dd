#include "recipes/redis_set_nx_px.hpp"

#include "recipes/fence_key.hpp"

namespace lockcheck {
namespace {

constexpr const char* kSetNxPxAcquireScript =
    "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then "
    "  return redis.call('INCR', KEYS[2]) "
    "end "
    "return false";

}  // namespace

RedisSetNxPx::RedisSetNxPx(const std::vector<std::string>& endpoints, const ConnectionOptions& connection)
    : connection_(endpoints, connection) {}

LockResult RedisSetNxPx::acquire(const LockRequest& request) {
    connection_.refresh();
    auto outcome = connection_.command({"EVAL", kSetNxPxAcquireScript, "2", request.key, fence_key(request.key), request.owner,
                                        std::to_string(request.ttl_ms)});
    if (outcome.kind != RedisOutcome::Kind::Reply || outcome.is_error_reply()) return redis_failure(outcome);
    if (outcome.reply->type == REDIS_REPLY_INTEGER) return LockResult::ok(outcome.reply->integer);
    return LockResult::fail(std::string(err::kHeld));
}

LockResult RedisSetNxPx::release(const LockRequest& request) {
    auto outcome = connection_.command({"EVAL", kCompareAndDeleteScript, "1", request.key, request.owner});
    if (outcome.kind != RedisOutcome::Kind::Reply || outcome.is_error_reply()) return redis_failure(outcome);
    if (outcome.reply->type == REDIS_REPLY_INTEGER && outcome.reply->integer == 1) return LockResult::ok();
    return LockResult::fail(std::string(err::kNotOwner));
}

}  // namespace lockcheck
