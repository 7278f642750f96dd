#include "recipes/mysql_stock_decrement.hpp"

namespace lockcheck {
namespace {

constexpr const char* kCreateStockTable =
    "CREATE TABLE IF NOT EXISTS stock (id VARCHAR(191) NOT NULL PRIMARY KEY, n BIGINT NOT NULL) ENGINE=InnoDB";

}  // namespace

MysqlStockDecrement::MysqlStockDecrement(const std::vector<std::string>& endpoints, const ConnectionOptions& connection,
                                         std::int64_t stock)
    : connection_(endpoints, connection, {kCreateStockTable}), stock_(stock) {}

LockResult MysqlStockDecrement::stock_init(const std::string& key) {
    const auto created = connection_.query("INSERT IGNORE INTO stock (id, n) VALUES (" + mysql_quote(key) + ", " +
                                           std::to_string(stock_) + ")");
    if (!created.ok()) return created.failure();
    LockResult result = LockResult::ok();
    result.value = {{"stock", stock_}, {"created", created.affected_rows == 1}};
    return result;
}

LockResult MysqlStockDecrement::decrement(const std::string& key) {
    const auto sold = connection_.query("UPDATE stock SET n = n - 1 WHERE id = " + mysql_quote(key) + " AND n > 0");
    if (!sold.ok()) return sold.failure();
    if (sold.affected_rows == 0) return LockResult::fail(std::string(err::kSoldOut));
    return LockResult::ok();
}

LockResult MysqlStockDecrement::stock_read(const std::string& key) {
    const auto left = connection_.query("SELECT n FROM stock WHERE id = " + mysql_quote(key));
    if (!left.ok()) return left.failure();
    if (!left.value) return LockResult::fail("no stock row");
    LockResult result = LockResult::ok();
    result.value = std::stoll(*left.value);
    return result;
}

}  // namespace lockcheck
