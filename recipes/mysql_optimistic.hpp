// Recipe "mysql-optimistic": an optimistic lock on a version column
// (optimistic_locks: id PRIMARY KEY, owner NULL when free, version).
//
// acquire: SELECT the row's version if it is free (no row yet: INSERT IGNORE
//          one with version 0 and read again); held: fail "held". Then
//          UPDATE ... SET owner = ?, version = version + 1 WHERE id = ? AND
//          version = <read>: 1 row: ok, token = the new version; 0 rows:
//          another client changed the row between the read and the update:
//          fail "conflict" (the liveness checker reports the conflict rate).
// release: UPDATE ... SET owner = NULL, version = version + 1 WHERE id = ? AND
//          owner = ?; 0 rows: fail "not-owner".
// The version only grows, so it is a fencing token ("fencing"). Autocommit
// statements; no lease (capability "no-lease"): a holder that dies leaves the
// row owned forever (a stuck lock).
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "recipes/lock_client.hpp"
#include "recipes/mysql_connection.hpp"
#include "recipes/recipe_descriptor.hpp"

namespace lockcheck {

class MysqlOptimistic : public LockClient {
public:
    MysqlOptimistic(const std::vector<std::string>& endpoints, const ConnectionOptions& connection);
    LockResult acquire(const LockRequest& request) override;
    LockResult release(const LockRequest& request) override;
    bool has_lease() const override { return false; }

private:
    MysqlPrimary connection_;
};

/// The descriptor of this recipe (recipes/mysql_optimistic_descriptor.cpp).
RecipeDescriptor mysql_optimistic_recipe();

}  // namespace lockcheck
