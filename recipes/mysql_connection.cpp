#include "recipes/mysql_connection.hpp"

#include <errmsg.h>
#include <mysqld_error.h>

#include <stdexcept>

#include "clusters/servers/mariadb_account.hpp"

namespace lockcheck {

LockResult MysqlOutcome::failure() const {
    return kind == Kind::Failed ? LockResult::fail(message) : LockResult::info(message);
}

MysqlOutcome::Kind classify_mysql_error(unsigned int code) {
    if (code >= CR_MIN_ERROR) return MysqlOutcome::Kind::Unknown;
    switch (code) {
        case ER_CONNECTION_KILLED:  // the session ended under the statement
        case ER_SERVER_SHUTDOWN:
        case ER_ERROR_DURING_COMMIT:  // a commit may have happened
            return MysqlOutcome::Kind::Unknown;
        default: return MysqlOutcome::Kind::Failed;
    }
}

bool mysql_error_breaks_connection(unsigned int code) {
    return code >= CR_MIN_ERROR || code == ER_CONNECTION_KILLED || code == ER_SERVER_SHUTDOWN;
}

unsigned int mysql_timeout_seconds(std::chrono::milliseconds timeout) {
    const auto ms = std::max<std::int64_t>(1, timeout.count());
    return static_cast<unsigned int>((ms + 999) / 1000);
}

MysqlConnection::MysqlConnection(const std::string& endpoint, const ConnectionOptions& connection)
    : endpoint_(endpoint) {
    const auto colon = endpoint.rfind(':');
    const std::string host = endpoint.substr(0, colon);
    unsigned int port = kMariadbPort;
    try {
        if (colon != std::string::npos) port = static_cast<unsigned int>(std::stoul(endpoint.substr(colon + 1)));
    } catch (const std::exception&) {
        throw std::invalid_argument("bad MariaDB endpoint '" + endpoint + "' (want ip:port)");
    }
    mysql_ = mysql_init(nullptr);
    if (!mysql_) {
        connect_error_ = "mysql_init: out of memory";
        return;
    }
    const unsigned int seconds = mysql_timeout_seconds(connection.timeout);
    my_bool reconnect = 0;
    mysql_optionsv(mysql_, MYSQL_OPT_CONNECT_TIMEOUT, &seconds);
    mysql_optionsv(mysql_, MYSQL_OPT_READ_TIMEOUT, &seconds);
    mysql_optionsv(mysql_, MYSQL_OPT_WRITE_TIMEOUT, &seconds);
    mysql_optionsv(mysql_, MYSQL_OPT_RECONNECT, &reconnect);
    const ClientCredentials login = connection.login.value_or(ClientCredentials{kMariadbUser, ""});
    if (mysql_real_connect(mysql_, host.c_str(), login.user.c_str(), login.password.c_str(), kMariadbDatabase, port,
                           nullptr, 0)) {
        connected_ = true;
    } else {
        connect_error_ =
            "connect to " + endpoint + ": (" + std::to_string(mysql_errno(mysql_)) + ") " + mysql_error(mysql_);
    }
}

MysqlConnection::~MysqlConnection() {
    if (mysql_) mysql_close(mysql_);
}

MysqlOutcome MysqlConnection::query(const std::string& sql) {
    MysqlOutcome out;
    if (!connected_) {
        out.kind = MysqlOutcome::Kind::Failed;
        out.code = CR_SERVER_GONE_ERROR;
        out.message = connect_error_.empty() ? "not connected" : connect_error_;
        return out;
    }
    auto fail = [&] {
        out.code = mysql_errno(mysql_);
        out.kind = classify_mysql_error(out.code);
        out.message = "(" + std::to_string(out.code) + ") " + mysql_error(mysql_);
        if (mysql_error_breaks_connection(out.code)) connected_ = false;
        return out;
    };
    if (mysql_real_query(mysql_, sql.c_str(), sql.size()) != 0) return fail();
    MYSQL_RES* result = mysql_store_result(mysql_);
    if (!result) {
        if (mysql_field_count(mysql_) != 0) return fail();  // rows were due but did not arrive
        out.kind = MysqlOutcome::Kind::Ok;
        out.affected_rows = mysql_affected_rows(mysql_);
        out.insert_id = mysql_insert_id(mysql_);
        return out;
    }
    if (MYSQL_ROW row = mysql_fetch_row(result)) {
        out.returned_row = true;
        if (mysql_num_fields(result) > 0 && row[0]) out.value = std::string(row[0], mysql_fetch_lengths(result)[0]);
    }
    mysql_free_result(result);
    out.kind = MysqlOutcome::Kind::Ok;
    return out;
}

MysqlPrimary::MysqlPrimary(std::vector<std::string> endpoints, const ConnectionOptions& connection,
                           std::vector<std::string> setup)
    : endpoints_(std::move(endpoints)), options_(connection), setup_(std::move(setup)) {
    if (endpoints_.empty()) throw std::invalid_argument("a MariaDB recipe needs at least one endpoint");
}

std::optional<std::string> MysqlPrimary::choose() {
    std::string reasons;
    for (const auto& endpoint : endpoints_) {
        auto candidate = std::make_unique<MysqlConnection>(endpoint, options_);
        std::string reason;
        if (!candidate->connected()) {
            reason = candidate->connect_error();
        } else if (endpoints_.size() > 1) {
            const auto read_only = candidate->query("SELECT @@read_only");
            if (!read_only.ok())
                reason = endpoint + ": " + read_only.message;
            else if (read_only.value != std::optional<std::string>("0"))
                reason = endpoint + " is read-only";
        }
        for (std::size_t i = 0; reason.empty() && i < setup_.size(); ++i) {
            const auto done = candidate->query(setup_[i]);
            if (!done.ok()) reason = endpoint + ": setup failed: " + done.message;
        }
        if (reason.empty()) {
            connection_ = std::move(candidate);
            return std::nullopt;
        }
        reasons += (reasons.empty() ? "" : "; ") + reason;
    }
    return "no writable MariaDB server: " + reasons;
}

MysqlOutcome MysqlPrimary::query(const std::string& sql) {
    if (!connection_ || !connection_->connected()) {
        connection_.reset();
        if (auto reason = choose()) {
            MysqlOutcome out;
            out.kind = MysqlOutcome::Kind::Failed;
            out.code = CR_CONNECTION_ERROR;
            out.message = *reason;
            return out;
        }
    }
    auto out = connection_->query(sql);
    if (!connection_->connected() || out.code == ER_OPTION_PREVENTS_STATEMENT) connection_.reset();
    return out;
}

}  // namespace lockcheck
