// MariaDB recipes, the parts that need no server: error classification,
// timeouts, quoting, recipe options, the no-lease capability, failover rules.
#include <errmsg.h>
#include <gtest/gtest.h>
#include <mysqld_error.h>

#include <algorithm>
#include <sstream>

#include "nemesis/mysql_failover.hpp"
#include "recipes/mysql_connection.hpp"
#include "recipes/mysql_table_record.hpp"
#include "recipes/protocol.hpp"
#include "recipes/recipes.hpp"
#include "recipes/worker_main.hpp"

namespace lockcheck {
namespace {

using Kind = MysqlOutcome::Kind;

TEST(MysqlErrors, ServerErrorsMeanNotExecutedUnlessTheSessionEnded) {
    EXPECT_EQ(classify_mysql_error(ER_DUP_ENTRY), Kind::Failed);
    EXPECT_EQ(classify_mysql_error(ER_OPTION_PREVENTS_STATEMENT), Kind::Failed) << "read-only: refused";
    EXPECT_EQ(classify_mysql_error(ER_LOCK_WAIT_TIMEOUT), Kind::Failed);
    EXPECT_EQ(classify_mysql_error(ER_CONNECTION_KILLED), Kind::Unknown);
    EXPECT_EQ(classify_mysql_error(ER_SERVER_SHUTDOWN), Kind::Unknown);
    EXPECT_EQ(classify_mysql_error(ER_ERROR_DURING_COMMIT), Kind::Unknown);
}

TEST(MysqlErrors, ClientErrorsAfterSendingMayHaveTakenEffect) {
    EXPECT_EQ(classify_mysql_error(CR_SERVER_LOST), Kind::Unknown);
    EXPECT_EQ(classify_mysql_error(CR_SERVER_GONE_ERROR), Kind::Unknown);
    EXPECT_TRUE(mysql_error_breaks_connection(CR_SERVER_LOST));
    EXPECT_TRUE(mysql_error_breaks_connection(ER_CONNECTION_KILLED));
    EXPECT_FALSE(mysql_error_breaks_connection(ER_DUP_ENTRY));
}

TEST(MysqlErrors, FailureTurnsIntoFailOrInfo) {
    MysqlOutcome failed{Kind::Failed, ER_DUP_ENTRY, "(1062) dup", 0, std::nullopt, false};
    MysqlOutcome unknown{Kind::Unknown, CR_SERVER_LOST, "(2013) lost", 0, std::nullopt, false};
    EXPECT_EQ(failed.failure().type, OpType::Fail);
    EXPECT_EQ(unknown.failure().type, OpType::Info);
    EXPECT_EQ(unknown.failure().error, "(2013) lost");
}

TEST(MysqlTimeouts, RoundUpToWholeSeconds) {
    EXPECT_EQ(mysql_timeout_seconds(std::chrono::milliseconds(1)), 1u);
    EXPECT_EQ(mysql_timeout_seconds(std::chrono::milliseconds(0)), 1u);
    EXPECT_EQ(mysql_timeout_seconds(std::chrono::milliseconds(1000)), 1u);
    EXPECT_EQ(mysql_timeout_seconds(std::chrono::milliseconds(1001)), 2u);
    EXPECT_EQ(mysql_timeout_seconds(std::chrono::milliseconds(2500)), 3u);
}

TEST(MysqlQuote, EscapesQuotesBackslashesAndControlBytes) {
    EXPECT_EQ(mysql_quote("lock"), "'lock'");
    EXPECT_EQ(mysql_quote("a'b\\c"), "'a\\'b\\\\c'");
    EXPECT_EQ(mysql_quote(std::string("x\0y\n", 4)), "'x\\0y\\n'");
}

TEST(MysqlRecipeOptions, CleanupIsABoolean) {
    EXPECT_NO_THROW(check_recipe_options("mysql-table-record", {{"cleanup", true}}));
    EXPECT_NO_THROW(check_recipe_options("mysql-table-record", nlohmann::json::object()));
    EXPECT_THROW(check_recipe_options("mysql-table-record", {{"cleanup", "yes"}}), std::invalid_argument);
    EXPECT_THROW(check_recipe_options("mysql-table-record", {{"cleanup", 1}}), std::invalid_argument);
    EXPECT_THROW(check_recipe_options("mysql-get-lock", {{"cleanup", true}}), std::invalid_argument);
    EXPECT_THROW(check_recipe_options("mysql-table-record", {{"clean", true}}), std::invalid_argument);
}

TEST(MysqlRecipes, TableRecordHasALeaseOnlyWithCleanup) {
    const std::vector<std::string> endpoints{"127.0.0.1:1"};  // clients connect lazily
    EXPECT_FALSE(MysqlTableRecord(endpoints, {std::chrono::milliseconds(100)}, false).has_lease());
    EXPECT_TRUE(MysqlTableRecord(endpoints, {std::chrono::milliseconds(100)}, true).has_lease());
    EXPECT_EQ(make_lock_client("mysql-get-lock", endpoints, {std::chrono::milliseconds(100)})->capabilities(),
              (std::vector<std::string>{"hold", "no-lease"}));
}

/// The capabilities a worker of `recipe` announces.
std::vector<std::string> hello_supports(const std::string& recipe, const nlohmann::json& options) {
    WorkerInit init;
    init.recipe = recipe;
    init.nodes = {"127.0.0.1:1"};
    init.recipe_options = options;
    std::istringstream in(encode_init(init) + "\n");
    std::ostringstream out;
    EXPECT_EQ(run_worker(in, out), 0);
    return decode_hello(out.str().substr(0, out.str().find('\n'))).supports;
}

TEST(MysqlRecipes, WorkersWithoutALeaseAnnounceNoLease) {
    auto has = [](const std::vector<std::string>& v) { return std::find(v.begin(), v.end(), "no-lease") != v.end(); };
    EXPECT_TRUE(has(hello_supports("mysql-table-record", nlohmann::json::object())));
    EXPECT_FALSE(has(hello_supports("mysql-table-record", {{"cleanup", true}})));
    EXPECT_TRUE(has(hello_supports("mysql-get-lock", nlohmann::json::object())));
    EXPECT_FALSE(has(hello_supports("redis-set-nx-px", nlohmann::json::object())));
}

TEST(MysqlPrimaryChoice, NoReachableServerIsANotExecutedFailure) {
    MysqlPrimary primary({"127.0.0.1:1"}, {std::chrono::milliseconds(500)});
    const auto out = primary.query("SELECT 1");
    EXPECT_EQ(out.kind, Kind::Failed);
    EXPECT_NE(out.message.find("no writable MariaDB server"), std::string::npos) << out.message;
    EXPECT_EQ(primary.endpoint(), "");
}

TEST(MysqlFailoverRules, CutOffFromPeersAndRefuseNewClients) {
    const auto rules = mysql_cut_off_rules({"10.77.0.2"});
    EXPECT_NE(std::find(rules.begin(), rules.end(), "-A INPUT -s 10.77.0.2 -j DROP"), rules.end());
    EXPECT_NE(
        std::find(rules.begin(), rules.end(), "-A INPUT -p tcp --dport 3306 --syn -j REJECT --reject-with tcp-reset"),
        rules.end());
}

}  // namespace
}  // namespace lockcheck
