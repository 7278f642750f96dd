#include "recipes/mysql_auto_increment_ids.hpp"

namespace lockcheck {
namespace {

constexpr const char* kCreateIdsTable =
    "CREATE TABLE IF NOT EXISTS ids (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, k VARCHAR(191) NOT NULL) "
    "ENGINE=InnoDB";

}  // namespace

MysqlAutoIncrementIds::MysqlAutoIncrementIds(const std::vector<std::string>& endpoints,
                                             const ConnectionOptions& connection)
    : connection_(endpoints, connection, {kCreateIdsTable}) {}

LockResult MysqlAutoIncrementIds::generate_id(const std::string& key) {
    const auto inserted = connection_.query("INSERT INTO ids (k) VALUES (" + mysql_quote(key) + ")");
    if (!inserted.ok()) return inserted.failure();
    // The row is committed (autocommit), so an answer without an id is no "not executed".
    if (inserted.insert_id == 0) return LockResult::info("INSERT generated no AUTO_INCREMENT id");
    return generated_id(static_cast<std::int64_t>(inserted.insert_id));
}

}  // namespace lockcheck
