#include "recipes/redis_setnx_expire.hpp"

#include <thread>

namespace lockcheck {

LockResult RedisSetNxExpire::acquire(const LockRequest& request) {
    auto set = connection_.command({"SETNX", request.key, request.owner});
    if (!is_usable(set)) return redis_failure(set);
    if (!reply_is_integer(*set.reply, 1)) return LockResult::fail(std::string(err::kHeld));

    std::this_thread::sleep_for(expire_gap_);  // the window a crash turns into a lock without TTL

    auto expire = connection_.command({"PEXPIRE", request.key, std::to_string(request.ttl_ms)});
    if (!is_usable(expire)) {
        // The key is ours but may have no TTL: whether the acquire "took effect" as asked is unknown.
        LockResult unknown = redis_failure(expire);
        return LockResult::info("SETNX succeeded, PEXPIRE did not: " + unknown.error.value_or(""));
    }
    return LockResult::ok();
}

}  // namespace lockcheck
