#include "recipes/redis_incr_ids.hpp"

#include "recipes/id_counter_key.hpp"
#include "recipes/redis_replies.hpp"

namespace lockcheck {

RedisIncrIds::RedisIncrIds(const std::vector<std::string>& endpoints, const ConnectionOptions& connection)
    : connection_(endpoints, connection) {}

LockResult RedisIncrIds::generate_id(const std::string& key) {
    connection_.refresh();
    auto outcome = connection_.command({"INCR", id_counter_key(key)});
    if (outcome.kind != RedisOutcome::Kind::Reply || outcome.is_error_reply()) return redis_failure(outcome);
    if (outcome.reply->type != REDIS_REPLY_INTEGER)  // INCR ran, but what it answered is no id
        return LockResult::info("INCR answered something other than an integer");
    return generated_id(outcome.reply->integer);
}

}  // namespace lockcheck
