#include "recipes/mysql_table_record.hpp"

#include <mysqld_error.h>

namespace lockcheck {
namespace {

constexpr const char* kCreateLockRecordsTable =
    "CREATE TABLE IF NOT EXISTS lock_records (lock_key VARCHAR(191) NOT NULL PRIMARY KEY, "
    "owner VARCHAR(191) NOT NULL, created DATETIME(3) NOT NULL) ENGINE=InnoDB";

}  // namespace

MysqlTableRecord::MysqlTableRecord(const std::vector<std::string>& endpoints, const ConnectionOptions& connection,
                                   bool cleanup)
    : connection_(endpoints, connection, {kCreateLockRecordsTable}), cleanup_(cleanup) {}

LockResult MysqlTableRecord::acquire(const LockRequest& request) {
    const std::string key = mysql_quote(request.key);
    nlohmann::json value = nullptr;
    if (cleanup_) {
        // Microseconds: created has millisecond precision, NOW(3) too.
        const auto cleaned =
            connection_.query("DELETE FROM lock_records WHERE lock_key = " + key + " AND created < NOW(3) - INTERVAL " +
                              std::to_string(request.ttl_ms * 1000) + " MICROSECOND");
        // Nothing was inserted: whatever the cleanup did, this acquire took no lock.
        if (!cleaned.ok()) return LockResult::fail(cleaned.message);
        if (cleaned.affected_rows > 0) value = {{"expired_deleted", cleaned.affected_rows}};
    }
    const auto inserted = connection_.query("INSERT INTO lock_records (lock_key, owner, created) VALUES (" + key +
                                            ", " + mysql_quote(request.owner) + ", NOW(3))");
    LockResult result;
    if (inserted.ok())
        result = LockResult::ok();
    else if (inserted.code == ER_DUP_ENTRY)
        result = LockResult::fail(std::string(err::kHeld));
    else
        result = inserted.failure();
    result.value = value;
    return result;
}

LockResult MysqlTableRecord::release(const LockRequest& request) {
    const auto deleted = connection_.query("DELETE FROM lock_records WHERE lock_key = " + mysql_quote(request.key) +
                                           " AND owner = " + mysql_quote(request.owner));
    if (!deleted.ok()) return deleted.failure();
    if (deleted.affected_rows == 0) return LockResult::fail(std::string(err::kNotOwner));
    return LockResult::ok();
}

}  // namespace lockcheck
