// Recipe "mysql-table-record": a lock is a row of a lock table
// (lock_records: lock_key PRIMARY KEY, owner, created DATETIME(3)).
//
// acquire: INSERT (lock_key, owner, NOW(3)); a duplicate key (ER_DUP_ENTRY)
//          means the lock is held (fail "held").
// release: DELETE WHERE lock_key = ? AND owner = ?; no row deleted: fail
//          "not-owner".
// Option "cleanup" (bool, default false): the design documents' fix for
// stuck locks. Each acquire first deletes the key's record when it is older
// than the acquire's ttl_ms by the SERVER's clock (created < NOW(3) - ttl),
// so ttl_ms becomes a lease: a record is never deleted before
// created + ttl >= acquire invoke + ttl. The acquire's completion value then
// says how many expired records it deleted ({"expired_deleted": n}).
// Without cleanup the lock has no lease (has_lease() false, capability
// "no-lease"): a holder that dies leaves its record forever (a stuck lock).
// Autocommit statements throughout; no fencing token.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "recipes/lock_client.hpp"
#include "recipes/mysql_connection.hpp"
#include "recipes/recipe_descriptor.hpp"

namespace lockcheck {

class MysqlTableRecord : public LockClient {
public:
    MysqlTableRecord(const std::vector<std::string>& endpoints, const ConnectionOptions& connection, bool cleanup);
    LockResult acquire(const LockRequest& request) override;
    LockResult release(const LockRequest& request) override;
    bool has_lease() const override { return cleanup_; }

private:
    MysqlPrimary connection_;
    bool cleanup_;
};

/// The descriptor of this recipe (recipes/mysql_table_record_descriptor.cpp).
RecipeDescriptor mysql_table_record_recipe();

}  // namespace lockcheck
