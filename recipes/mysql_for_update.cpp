#include "recipes/mysql_for_update.hpp"

#include <mysqld_error.h>

namespace lockcheck {
namespace {

constexpr const char* kCreateForUpdateTable =
    "CREATE TABLE IF NOT EXISTS for_update_locks (id VARCHAR(191) NOT NULL PRIMARY KEY, "
    "counter BIGINT NOT NULL DEFAULT 0) ENGINE=InnoDB";

/// The lock's row, by key.
std::string row(const LockRequest& request) { return " FROM for_update_locks WHERE id = " + mysql_quote(request.key); }

}  // namespace

MysqlForUpdate::MysqlForUpdate(const std::vector<std::string>& endpoints, const ConnectionOptions& connection,
                               bool resource_inside)
    : connection_(endpoints, connection, {kCreateForUpdateTable}), inside_(resource_inside) {}

LockResult MysqlForUpdate::abandon(const MysqlOutcome& outcome, LockResult result) {
    if (outcome.kind == MysqlOutcome::Kind::Failed) rollback();
    in_transaction_ = false;
    return result;
}

void MysqlForUpdate::rollback() {
    connection_.query("ROLLBACK");
    in_transaction_ = false;
}

void MysqlForUpdate::reset_wait_timeout() { connection_.query("SET SESSION wait_timeout = DEFAULT"); }

LockResult MysqlForUpdate::acquire(const LockRequest& request) {
    if (in_transaction_) rollback();  // a leftover: never hold two
    // Lock the row; a key seen for the first time has none: create it (an
    // autocommit INSERT IGNORE outside the transaction: it takes no lock, but
    // it would wait for a holder's row lock, so only when the row is missing).
    for (int attempt = 0;; ++attempt) {
        const auto begun = connection_.query("START TRANSACTION");
        if (!begun.ok()) return begun.failure();
        in_transaction_ = true;
        const auto locked = connection_.query("SELECT id" + row(request) + " FOR UPDATE NOWAIT");
        if (!locked.ok()) {
            // ER_LOCK_WAIT_TIMEOUT: NOWAIT met another transaction's row lock.
            if (locked.code == ER_LOCK_WAIT_TIMEOUT) return abandon(locked, LockResult::fail(std::string(err::kHeld)));
            // Unknown: the lock read may have run; the server frees it once it
            // sees the connection gone, but until then it may hold it: info.
            return abandon(locked, locked.failure());
        }
        if (locked.returned_row) break;
        rollback();
        if (attempt > 0) return LockResult::fail("lock row missing");
        const auto created =
            connection_.query("INSERT IGNORE INTO for_update_locks (id) VALUES (" + mysql_quote(request.key) + ")");
        if (!created.ok()) return created.failure();
    }
    const unsigned int seconds = mysql_timeout_seconds(std::chrono::milliseconds(request.ttl_ms));
    const auto leased = connection_.query("SET SESSION wait_timeout = " + std::to_string(seconds));
    if (!leased.ok()) {  // without the lease the lock could be held forever: give it back
        return abandon(leased, leased.failure());
    }
    LockResult result = LockResult::ok();
    if (static_cast<std::int64_t>(seconds) * 1000 != request.ttl_ms) result.value = {{"wait_timeout_s", seconds}};
    return result;
}

LockResult MysqlForUpdate::read(const LockRequest& request) {
    if (!in_transaction_) return LockResult::fail("no transaction holds the lock");
    const auto counter = connection_.query("SELECT counter" + row(request));
    if (!counter.ok()) return abandon(counter, LockResult::fail(counter.message));  // nothing was written
    if (!counter.value) {
        rollback();
        return LockResult::fail("lock row missing");
    }
    LockResult result = LockResult::ok();
    result.value = std::stoll(*counter.value);
    return result;
}

LockResult MysqlForUpdate::write(const LockRequest& request, std::int64_t value) {
    if (!in_transaction_) return LockResult::fail("no transaction holds the lock");
    const auto updated = connection_.query("UPDATE for_update_locks SET counter = " + std::to_string(value) +
                                           " WHERE id = " + mysql_quote(request.key));
    // Before COMMIT is sent nothing can commit: a broken connection rolls back.
    if (!updated.ok()) return abandon(updated, LockResult::fail(updated.message));
    const auto committed = connection_.query("COMMIT");
    in_transaction_ = false;
    if (committed.ok()) return LockResult::ok();
    return committed.failure();  // Failed: rolled back; Unknown: the commit may have happened
}

LockResult MysqlForUpdate::release(const LockRequest&) {
    LockResult result = LockResult::ok();
    if (inside_) {
        // The write's COMMIT ended the transaction; one still open wrote nothing.
        if (in_transaction_) rollback();
    } else if (!in_transaction_) {
        result = LockResult::fail(std::string(err::kNotOwner));  // the transaction, and the lock, are gone
    } else {
        const auto committed = connection_.query("COMMIT");
        in_transaction_ = false;
        if (!committed.ok()) return committed.failure();
    }
    reset_wait_timeout();
    return result;
}

}  // namespace lockcheck
