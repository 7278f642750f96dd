// Recipe "mysql-stock-decrement": not a lock but the single-statement stock
// decrement a shop uses instead of one (a StockClient, capability "stock",
// driven by workers/stock_workload.hpp, judged by checkers/oversell.hpp).
// Table stock (id PRIMARY KEY, n BIGINT).
//
// stock_init: INSERT IGNORE INTO stock (id, n) VALUES (?, <option stock>):
//             idempotent, so every worker may run it; ok {"stock": initial}.
// decrement:  UPDATE stock SET n = n - 1 WHERE id = ? AND n > 0: 1 row: ok
//             (sold one); 0 rows: fail "sold-out"; connection lost: info.
// stock_read: SELECT n: ok with the stock left.
// Option stock (integer >= 0, default 100): the initial stock of each key.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "recipes/mysql_connection.hpp"
#include "recipes/recipe_descriptor.hpp"
#include "recipes/stock_client.hpp"

namespace lockcheck {

class MysqlStockDecrement : public StockClient {
public:
    static constexpr std::int64_t kDefaultStock = 100;

    MysqlStockDecrement(const std::vector<std::string>& endpoints, const ConnectionOptions& connection,
                        std::int64_t stock);
    LockResult stock_init(const std::string& key) override;
    LockResult decrement(const std::string& key) override;
    LockResult stock_read(const std::string& key) override;

private:
    MysqlPrimary connection_;
    std::int64_t stock_;
};

/// The descriptor of this recipe (recipes/mysql_stock_decrement_descriptor.cpp).
RecipeDescriptor mysql_stock_decrement_recipe();

}  // namespace lockcheck
