#include "recipes/redis_del_unsafe.hpp"

namespace lockcheck {

LockResult RedisDelUnsafe::release(const LockRequest& request) {
    auto outcome = connection_.command({"GETDEL", request.key});
    if (!is_usable(outcome)) return redis_failure(outcome);
    const auto removed = reply_string(*outcome.reply);
    if (!removed) return LockResult::fail(std::string(err::kNotOwner));  // nothing to delete: the lease had run out
    LockResult result = LockResult::ok();
    result.value = {{"removed_owner", *removed}};
    return result;
}

}  // namespace lockcheck
