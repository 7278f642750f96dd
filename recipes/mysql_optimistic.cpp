#include "recipes/mysql_optimistic.hpp"

namespace lockcheck {
namespace {

constexpr const char* kCreateOptimisticLocksTable =
    "CREATE TABLE IF NOT EXISTS optimistic_locks (id VARCHAR(191) NOT NULL PRIMARY KEY, "
    "owner VARCHAR(191) NULL, version BIGINT NOT NULL DEFAULT 0) ENGINE=InnoDB";

}  // namespace

MysqlOptimistic::MysqlOptimistic(const std::vector<std::string>& endpoints, const ConnectionOptions& connection)
    : connection_(endpoints, connection, {kCreateOptimisticLocksTable}) {}

LockResult MysqlOptimistic::acquire(const LockRequest& request) {
    const std::string key = mysql_quote(request.key);
    // The version when the row is free, -1 when it is held.
    const std::string read = "SELECT IF(owner IS NULL, version, -1) FROM optimistic_locks WHERE id = " + key;
    auto seen = connection_.query(read);
    if (seen.ok() && !seen.returned_row) {  // first use of the key: create its row, free
        const auto created = connection_.query("INSERT IGNORE INTO optimistic_locks (id) VALUES (" + key + ")");
        if (!created.ok()) return created.failure();  // a free row takes no lock, whatever happened
        seen = connection_.query(read);
    }
    if (!seen.ok()) return seen.failure();
    if (!seen.value) return LockResult::fail("lock row missing");
    const std::int64_t version = std::stoll(*seen.value);
    if (version < 0) return LockResult::fail(std::string(err::kHeld));

    const auto taken =
        connection_.query("UPDATE optimistic_locks SET owner = " + mysql_quote(request.owner) +
                          ", version = version + 1 WHERE id = " + key + " AND version = " + std::to_string(version));
    if (!taken.ok()) return taken.failure();
    if (taken.affected_rows == 0) return LockResult::fail(std::string(err::kConflict));
    return LockResult::ok(version + 1);
}

LockResult MysqlOptimistic::release(const LockRequest& request) {
    const auto freed = connection_.query("UPDATE optimistic_locks SET owner = NULL, version = version + 1 WHERE id = " +
                                         mysql_quote(request.key) + " AND owner = " + mysql_quote(request.owner));
    if (!freed.ok()) return freed.failure();
    if (freed.affected_rows == 0) return LockResult::fail(std::string(err::kNotOwner));
    return LockResult::ok();
}

}  // namespace lockcheck
