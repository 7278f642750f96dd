// Recipe "mysql-auto-increment-ids": not a lock but ids from an
// AUTO_INCREMENT column (a UniqueIdClient, capability "unique-ids", driven by
// workers/unique_ids_workload.hpp, judged by checkers/unique_ids.hpp).
// Table ids (id BIGINT AUTO_INCREMENT PRIMARY KEY, k VARCHAR(191)): one
// sequence for every key, so ids are distinct within each key and across them.
//
// generate_id: INSERT INTO ids (k) VALUES (?) with autocommit; the id is the
//              statement's LAST_INSERT_ID(), which the server sends in the
//              INSERT's own OK packet (MysqlOutcome::insert_id): ok {"id": N}.
//              An error the server answered (the statement did not run) or
//              no server to connect to: fail; the connection broke or timed
//              out after sending (the row may be committed): info, never ok.
// Promise: every id is new, as long as the committed rows survive (InnoDB's
// default innodb_flush_log_at_trx_commit=1) and the table's AUTO_INCREMENT
// counter is not behind them.
#pragma once

#include <string>
#include <vector>

#include "recipes/mysql_connection.hpp"
#include "recipes/recipe_descriptor.hpp"
#include "recipes/unique_id_client.hpp"

namespace lockcheck {

class MysqlAutoIncrementIds : public UniqueIdClient {
public:
    MysqlAutoIncrementIds(const std::vector<std::string>& endpoints, const ConnectionOptions& connection);
    LockResult generate_id(const std::string& key) override;

private:
    MysqlPrimary connection_;
};

/// The descriptor of this recipe (recipes/mysql_auto_increment_ids_descriptor.cpp).
RecipeDescriptor mysql_auto_increment_ids_recipe();

}  // namespace lockcheck
