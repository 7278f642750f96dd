#include "recipes/redis_replies.hpp"

namespace lockcheck {

bool is_usable(const RedisOutcome& outcome) {
    return outcome.kind == RedisOutcome::Kind::Reply && !outcome.is_error_reply();
}

LockResult redis_failure(const RedisOutcome& outcome) {
    switch (outcome.kind) {
        case RedisOutcome::Kind::NotSent: return LockResult::fail("not executed: " + outcome.error);
        case RedisOutcome::Kind::Unknown: return LockResult::info(outcome.error);
        case RedisOutcome::Kind::Reply: break;
    }
    return LockResult::fail("redis: " + outcome.error_reply());
}

std::optional<std::string> reply_string(const redisReply& reply) {
    if (reply.type == REDIS_REPLY_STRING || reply.type == REDIS_REPLY_STATUS) return std::string(reply.str, reply.len);
    return std::nullopt;
}

bool reply_is_integer(const redisReply& reply, long long value) {
    return reply.type == REDIS_REPLY_INTEGER && reply.integer == value;
}

}  // namespace lockcheck
