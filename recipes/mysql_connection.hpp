// One libmariadb connection (MYSQL*) with the error classification lock
// recipes need, and the choice of the writable server among a topology's
// endpoints.
//
// Timeouts: connect, read and write timeouts come from the worker's
// server_timeout_ms; libmariadb counts whole seconds, so they are rounded UP
// (a 1500 ms timeout waits up to 2 s). Auto-reconnect is OFF: a silent
// reconnect would run the next statement on a new session, outside the
// transaction (or without the GET_LOCK) the recipe thinks it is in.
#pragma once

#include <mysql.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "clusters/servers/config_quoting.hpp"  // mysql_quote
#include "recipes/connection_options.hpp"
#include "recipes/worker_client.hpp"

namespace lockcheck {

/// The outcome of one statement.
struct MysqlOutcome {
    enum class Kind {
        Ok,       ///< the statement ran
        Failed,   ///< certainly not executed: the server answered with an error, or no connection
        Unknown,  ///< may have taken effect: the connection broke or timed out after sending
    };
    Kind kind = Kind::Unknown;
    unsigned int code = 0;  ///< server (ER_*) or client (CR_*) error code; 0 when ok
    std::string message;    ///< "(code) message" when not ok
    std::uint64_t affected_rows = 0;
    /// First column of the first row, when the statement returned one and it is not NULL.
    std::optional<std::string> value;
    bool returned_row = false;  ///< a row came back (its first column may be NULL)
    /// The AUTO_INCREMENT value the statement generated (LAST_INSERT_ID(),
    /// from the server's OK packet, so it arrives with the statement's
    /// success); 0 when it generated none.
    std::uint64_t insert_id = 0;

    bool ok() const { return kind == Kind::Ok; }
    /// LockResult::fail (Failed) or LockResult::info (Unknown) carrying `message`.
    LockResult failure() const;
};

/// How the error `code`, seen after a statement was sent, is classified:
/// server errors (< 2000) mean the statement did not run (a statement is
/// atomic), except those that report the session's end (connection killed,
/// server shutdown) and ones a COMMIT may hide; client errors (>= 2000)
/// mean the connection broke or timed out mid-statement: Unknown.
MysqlOutcome::Kind classify_mysql_error(unsigned int code);

/// True when `code` means the connection is unusable (the next operation
/// must connect again): any client error, or a server error that ends the session.
bool mysql_error_breaks_connection(unsigned int code);

/// libmariadb timeouts are whole seconds: `timeout` rounded up, at least 1.
unsigned int mysql_timeout_seconds(std::chrono::milliseconds timeout);

class MysqlConnection {
public:
    /// Connects to `endpoint` ("host:port") as connection.login (kMariadbUser
    /// and no password without one), database kMariadbDatabase. Check
    /// connected() / connect_error().
    MysqlConnection(const std::string& endpoint, const ConnectionOptions& connection);
    ~MysqlConnection();
    MysqlConnection(const MysqlConnection&) = delete;
    MysqlConnection& operator=(const MysqlConnection&) = delete;

    bool connected() const { return connected_; }
    const std::string& connect_error() const { return connect_error_; }
    const std::string& endpoint() const { return endpoint_; }

    /// Runs one statement; for statements that return rows, the first
    /// column of the first row lands in MysqlOutcome::value. After a
    /// connection-breaking error, connected() turns false.
    MysqlOutcome query(const std::string& sql);

private:
    std::string endpoint_;
    MYSQL* mysql_ = nullptr;
    bool connected_ = false;
    std::string connect_error_;
};

/// The connection of a recipe to the writable server of a topology.
///
/// With several endpoints (mysql-replicated), connects to each in order and
/// keeps the first whose @@read_only is 0. Once chosen, the connection stays
/// until it breaks (a client error, a killed session) or the server refuses
/// writes as read-only (ER_OPTION_PREVENTS_STATEMENT); the operation after
/// that connects and chooses again. On every new connection it runs the
/// recipe's `setup` statements (e.g. CREATE TABLE IF NOT EXISTS).
class MysqlPrimary {
public:
    /// Throws std::invalid_argument for an empty endpoint list.
    MysqlPrimary(std::vector<std::string> endpoints, const ConnectionOptions& connection,
                 std::vector<std::string> setup = {});

    /// One statement on the writable server; Failed (not executed) when none
    /// can be reached.
    MysqlOutcome query(const std::string& sql);
    /// Drops the current connection: the next query connects and chooses again.
    void reset() { connection_.reset(); }
    /// "ip:port" of the current connection, or "" when there is none.
    std::string endpoint() const { return connection_ ? connection_->endpoint() : ""; }

private:
    std::vector<std::string> endpoints_;
    ConnectionOptions options_;
    std::vector<std::string> setup_;
    std::unique_ptr<MysqlConnection> connection_;

    /// Connects and chooses; returns the reason when no endpoint will do.
    std::optional<std::string> choose();
};

}  // namespace lockcheck
