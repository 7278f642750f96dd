// Recipe "mysql-for-update": a pessimistic lock held by an open transaction.
//
// The lock of a key is the row of for_update_locks with that id (created
// lazily with INSERT IGNORE); the row also holds the key's counter for
// resource "inside".
// acquire: START TRANSACTION; SELECT ... FOR UPDATE NOWAIT on the row (a
//          row lock held by another transaction: fail "held"); then SET
//          SESSION wait_timeout = ceil(ttl_ms / 1000) s: the lease. The server
//          kills a connection idle that long, which rolls the transaction back
//          and frees the row lock; the idle time counts from the holder's last
//          statement, so the lease is never shorter than ttl_ms from the
//          acquire's invoke. A ttl_ms that is not whole seconds is rounded UP
//          and the completion's value says so ({"wait_timeout_s": n}).
// Option resource (string, default "outside"):
//   "outside": the protected read/write go to the controller's register as
//              for every other recipe; release = COMMIT. A holder paused past
//              wait_timeout loses its row lock to the next holder but still
//              writes the register when it wakes: unsafe.
//   "inside":  the worker does them itself (capability "resource"): read =
//              SELECT counter in the same transaction; write = UPDATE counter
//              and COMMIT, ok only when the COMMIT succeeded, fail when the
//              transaction was certainly rolled back (any failure before the
//              COMMIT was sent, e.g. a connection the server killed), info
//              when the connection broke during the COMMIT. release then has
//              nothing left to release: ok (a transaction still open, because
//              no write happened, is rolled back). A paused holder's write
//              fails with its connection: safe.
// Every release resets the session's wait_timeout to the server default.
// No fencing token.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "recipes/lock_client.hpp"
#include "recipes/mysql_connection.hpp"
#include "recipes/recipe_descriptor.hpp"

namespace lockcheck {

class MysqlForUpdate : public LockClient {
public:
    /// `resource_inside`: option resource "inside" (else "outside").
    MysqlForUpdate(const std::vector<std::string>& endpoints, const ConnectionOptions& connection,
                   bool resource_inside);
    LockResult acquire(const LockRequest& request) override;
    LockResult release(const LockRequest& request) override;
    LockResult read(const LockRequest& request) override;
    LockResult write(const LockRequest& request, std::int64_t value) override;
    bool owns_resource() const override { return inside_; }

private:
    MysqlPrimary connection_;
    bool inside_;
    bool in_transaction_ = false;  ///< our transaction holds the row lock (as far as we know)

    /// Ends a transaction that failed with `outcome`: rolls back unless the
    /// connection is gone (the server rolled it back), returns `result`.
    LockResult abandon(const MysqlOutcome& outcome, LockResult result);
    /// ROLLBACK of our transaction (errors ignored: a broken connection rolled it back).
    void rollback();
    /// SET SESSION wait_timeout = DEFAULT; errors are ignored (the next
    /// acquire reconnects if the connection is gone).
    void reset_wait_timeout();
};

/// The descriptor of this recipe (recipes/mysql_for_update_descriptor.cpp).
RecipeDescriptor mysql_for_update_recipe();

}  // namespace lockcheck
