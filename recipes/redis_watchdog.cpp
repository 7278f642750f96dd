#include "recipes/redis_watchdog.hpp"

namespace lockcheck {
namespace {

constexpr const char* kRenewScript =
    "if redis.call('GET', KEYS[1]) == ARGV[1] then "
    "  return redis.call('PEXPIRE', KEYS[1], ARGV[2]) "
    "end "
    "return 0";

}  // namespace

LockResult RedisWatchdog::renew(const LockRequest& request) {
    auto outcome =
        connection_.command({"EVAL", kRenewScript, "1", request.key, request.owner, std::to_string(request.ttl_ms)});
    if (!is_usable(outcome)) return redis_failure(outcome);
    if (reply_is_integer(*outcome.reply, 1)) return LockResult::ok();
    return LockResult::fail(std::string(err::kNotOwner));
}

}  // namespace lockcheck
