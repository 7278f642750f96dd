#include "recipes/redis_watch_multi.hpp"

#include "recipes/fence_key.hpp"
#include "recipes/redis_replies.hpp"

namespace lockcheck {
namespace {

/// A failure before EXEC: nothing was applied whatever the connection did
/// (queued commands die with the connection).
LockResult not_executed(const RedisOutcome& outcome) {
    return LockResult::fail("not executed: " + redis_failure(outcome).error.value_or(""));
}

}  // namespace

RedisWatchMulti::RedisWatchMulti(const std::string& endpoint, const ConnectionOptions& connection)
    : connection_(endpoint, connection) {}

void RedisWatchMulti::abandon(const RedisOutcome& failed) {
    if (failed.kind != RedisOutcome::Kind::Reply) return;  // the connection was dropped, and its state with it
    connection_.command({"DISCARD"});                      // error reply outside MULTI: harmless
    connection_.command({"UNWATCH"});
}

std::optional<LockResult> RedisWatchMulti::watch_and_get(const std::string& key, std::optional<std::string>& value) {
    auto watch = connection_.command({"WATCH", key});
    if (!is_usable(watch)) return not_executed(watch);
    auto get = connection_.command({"GET", key});
    if (!is_usable(get)) {
        abandon(get);
        return not_executed(get);
    }
    value = reply_string(*get.reply);
    return std::nullopt;
}

std::optional<LockResult> RedisWatchMulti::transaction(const std::vector<std::vector<std::string>>& commands,
                                                       RedisOutcome& exec) {
    auto multi = connection_.command({"MULTI"});
    if (!is_usable(multi)) {
        abandon(multi);
        return not_executed(multi);
    }
    for (const auto& command : commands) {
        auto queued = connection_.command(command);
        if (!is_usable(queued)) {
            abandon(queued);
            return not_executed(queued);
        }
    }
    exec = connection_.command({"EXEC"});
    if (!is_usable(exec)) return redis_failure(exec);  // lost reply: it may have committed
    return std::nullopt;
}

LockResult RedisWatchMulti::acquire(const LockRequest& request) {
    std::optional<std::string> holder;
    if (auto failed = watch_and_get(request.key, holder)) return *failed;
    if (holder) {
        connection_.command({"UNWATCH"});
        return LockResult::fail(std::string(err::kHeld));
    }
    RedisOutcome exec;
    if (auto failed = transaction({{"SET", request.key, request.owner, "PX", std::to_string(request.ttl_ms)},
                                   {"INCR", fence_key(request.key)}},
                                  exec))
        return *failed;
    if (exec.reply->type != REDIS_REPLY_ARRAY || exec.reply->elements != 2)
        return LockResult::fail(std::string(err::kHeld));  // aborted: the key changed since WATCH
    const redisReply* token = exec.reply->element[1];
    return token->type == REDIS_REPLY_INTEGER ? LockResult::ok(token->integer) : LockResult::ok();
}

LockResult RedisWatchMulti::release(const LockRequest& request) {
    std::optional<std::string> holder;
    if (auto failed = watch_and_get(request.key, holder)) return *failed;
    if (holder != request.owner) {
        connection_.command({"UNWATCH"});
        return LockResult::fail(std::string(err::kNotOwner));
    }
    RedisOutcome exec;
    if (auto failed = transaction({{"DEL", request.key}}, exec)) return *failed;
    if (exec.reply->type != REDIS_REPLY_ARRAY)
        return LockResult::fail(std::string(err::kNotOwner));  // expired or taken
    return LockResult::ok();
}

}  // namespace lockcheck
