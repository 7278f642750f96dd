#include "recipes/mysql_get_lock.hpp"

namespace lockcheck {

MysqlGetLock::MysqlGetLock(const std::vector<std::string>& endpoints, const ConnectionOptions& connection)
    : connection_(endpoints, connection) {}

LockResult MysqlGetLock::acquire(const LockRequest& request) {
    const auto got = connection_.query("SELECT GET_LOCK(" + mysql_quote(request.key) + ", 0)");
    if (!got.ok()) return got.failure();
    if (got.value == std::optional<std::string>("1")) return LockResult::ok();
    if (got.value == std::optional<std::string>("0")) return LockResult::fail(std::string(err::kHeld));
    return LockResult::fail("GET_LOCK returned NULL");
}

LockResult MysqlGetLock::release(const LockRequest& request) {
    const auto released = connection_.query("SELECT RELEASE_LOCK(" + mysql_quote(request.key) + ")");
    if (!released.ok()) return released.failure();
    if (released.value == std::optional<std::string>("1")) return LockResult::ok();
    return LockResult::fail(std::string(err::kNotOwner));
}

}  // namespace lockcheck
