#include "recipes/redis_getset_timestamp.hpp"

#include "recipes/redis_replies.hpp"

namespace lockcheck {
namespace {

std::int64_t wall_clock_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

/// The expiry in a lock value "<expires_at_ms> <owner>"; 0 (long expired) when unreadable.
std::int64_t expiry_of(const std::string& value) {
    try {
        return std::stoll(value.substr(0, value.find(' ')));
    } catch (const std::exception&) {
        return 0;
    }
}

}  // namespace

RedisGetsetTimestamp::RedisGetsetTimestamp(const std::string& endpoint, const ConnectionOptions& connection)
    : connection_(endpoint, connection) {}

LockResult RedisGetsetTimestamp::acquire(const LockRequest& request) {
    const std::int64_t expires_at = wall_clock_ms() + request.ttl_ms;
    const std::string mine = std::to_string(expires_at) + " " + request.owner;
    expires_at_ms_.clear();  // one lock at a time per client: forget earlier attempts
    expires_at_ms_[request.owner] = expires_at;

    auto set = connection_.command({"SETNX", request.key, mine});
    if (!is_usable(set)) return redis_failure(set);
    if (reply_is_integer(*set.reply, 1)) return LockResult::ok();

    auto get = connection_.command({"GET", request.key});
    if (!is_usable(get)) return LockResult::fail("not executed: GET: " + redis_failure(get).error.value_or(""));
    const auto seen = reply_string(*get.reply);
    if (!seen) return LockResult::fail(std::string(err::kHeld));  // released between SETNX and GET: held at SETNX time
    if (expiry_of(*seen) > wall_clock_ms()) return LockResult::fail(std::string(err::kHeld));
    return take_over(request.key, *seen, mine);
}

LockResult RedisGetsetTimestamp::take_over(const std::string& key, const std::string& seen, const std::string& mine) {
    auto outcome = connection_.command({"GETSET", key, mine});
    if (!is_usable(outcome)) return redis_failure(outcome);  // unknown after sending: we may hold it now
    const auto previous = reply_string(*outcome.reply);
    // Ours if nobody changed the value since GET, or if the key vanished and GETSET created it.
    if (!previous || *previous == seen) return LockResult::ok();
    return LockResult::fail(std::string(err::kHeld));  // another client took it over first
}

LockResult RedisGetsetTimestamp::release(const LockRequest& request) {
    const auto it = expires_at_ms_.find(request.owner);
    if (it == expires_at_ms_.end() || it->second <= wall_clock_ms())
        return LockResult::fail(std::string(err::kNotOwner));  // our expiry has passed: the lock may be someone else's
    auto outcome = connection_.command({"DEL", request.key});
    if (!is_usable(outcome)) return redis_failure(outcome);
    if (reply_is_integer(*outcome.reply, 1)) return LockResult::ok();
    return LockResult::fail(std::string(err::kNotOwner));
}

}  // namespace lockcheck
