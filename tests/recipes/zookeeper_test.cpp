// The pure parts of the ZooKeeper family: the server's config, the sequential
// recipe's ordering, the error classification, and the spec checks that keep
// a session from being shorter than the lease.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "clusters/servers/zookeeper_node.hpp"
#include "tests/support/spec_test_support.hpp"
#include "recipes/recipes.hpp"
#include "recipes/zk_connection.hpp"
#include "recipes/zk_sequential.hpp"

using namespace lockcheck;

namespace {

std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

TEST(ZooKeeperNode, ConfigNamesTheEnsembleAndTheSessionBounds) {
    const auto dir = std::filesystem::temp_directory_path() / ("lockcheck-zk-test-" + std::to_string(::getpid()));
    const auto program = zookeeper_server_program(dir, 2, {{"10.9.0.1"}, {"10.9.0.2"}, {"10.9.0.3"}});
    const std::string cfg = slurp(dir / "zoo.cfg");
    EXPECT_NE(cfg.find("clientPortAddress=10.9.0.2\n"), std::string::npos) << cfg;
    EXPECT_NE(cfg.find("tickTime=500\n"), std::string::npos);
    EXPECT_NE(cfg.find("maxSessionTimeout=60000\n"), std::string::npos);
    EXPECT_NE(cfg.find("server.3=10.9.0.3\\:2888\\:3888\n"), std::string::npos);
    EXPECT_NE(cfg.find("4lw.commands.whitelist=ruok, srvr\n"), std::string::npos);
    EXPECT_EQ(slurp(dir / "data" / "myid"), "2\n");
    EXPECT_NE(slurp(dir / "conf" / "log4j.properties").find("ConsoleAppender"), std::string::npos);
    EXPECT_EQ(program.argv.front(), "java");
    EXPECT_EQ(program.argv.back(), (dir / "zoo.cfg").string());
    EXPECT_FALSE(program.ready("10.255.255.1")) << "nobody answers ruok there";
    std::filesystem::remove_all(dir);
}

TEST(ZooKeeperNode, FourLetterWordWithoutServerIsNoAnswer) {
    EXPECT_FALSE(zookeeper_four_letter("127.0.0.1", "ruok", std::chrono::milliseconds(200)).has_value());
    EXPECT_FALSE(zookeeper_four_letter("not-an-address", "ruok").has_value());
    EXPECT_FALSE(zookeeper_mode("127.0.0.1", std::chrono::milliseconds(200)).has_value());
}

TEST(ZkSequential, ChildrenAreOrderedBySequenceNotByName) {
    const std::vector<std::string> children{"lock-0000000010", "lock-0000000002", "x-lock-0000000007"};
    EXPECT_EQ(zk_sorted_by_sequence(children),
              (std::vector<std::string>{"lock-0000000002", "x-lock-0000000007", "lock-0000000010"}));
}

TEST(ZkConnection, LostConnectionMayHaveAppliedADefiniteAnswerDidNot) {
    EXPECT_TRUE(zk_may_have_applied(ZCONNECTIONLOSS));
    EXPECT_TRUE(zk_may_have_applied(ZOPERATIONTIMEOUT));
    EXPECT_TRUE(zk_may_have_applied(ZSESSIONEXPIRED));
    EXPECT_FALSE(zk_may_have_applied(ZOK));
    EXPECT_FALSE(zk_may_have_applied(ZNODEEXISTS));
    EXPECT_FALSE(zk_may_have_applied(ZNONODE));
    EXPECT_FALSE(zk_may_have_applied(ZBADVERSION));
    EXPECT_FALSE(zk_may_have_applied(ZINVALIDSTATE)) << "never sent";
    EXPECT_NE(zk_error_text(ZCONNECTIONLOSS).find("-4"), std::string::npos);
}

TEST(ZkRecipes, SessionTimeoutOptionIsCheckedAgainstTheServersBounds) {
    EXPECT_NO_THROW(check_recipe_options("zk-sequential", {{"session_timeout_ms", 5000}}));
    EXPECT_THROW(check_recipe_options("zk-ephemeral", {{"session_timeout_ms", 500}}), std::invalid_argument);
    EXPECT_THROW(check_recipe_options("zk-ephemeral", {{"session_timeout_ms", 60001}}), std::invalid_argument);
    EXPECT_THROW(check_recipe_options("zk-ephemeral", {{"session_timeout_ms", "long"}}), std::invalid_argument);
    EXPECT_THROW(check_recipe_options("redis-set-nx-px", {{"session_timeout_ms", 5000}}), std::invalid_argument);
}

TEST(ZkRecipes, SpecRefusesASessionShorterThanTheLease) {
    const nlohmann::json zk{{"recipe", "zk-sequential"}, {"topology", "zookeeper"}, {"ttl_ms", 2000}};
    EXPECT_EQ(lockcheck::testing::spec_error_of(zk), "");
    auto shorter = zk;
    shorter["recipe_options"] = {{"session_timeout_ms", 1500}};
    EXPECT_NE(lockcheck::testing::spec_error_of(shorter).find("session_timeout_ms must be >= ttl_ms"),
              std::string::npos);
    auto too_long = zk;
    too_long["ttl_ms"] = 61000;
    too_long["fault_duration_ms"] = {1000, 2000};
    EXPECT_NE(lockcheck::testing::spec_error_of(too_long).find("field 'ttl_ms'"), std::string::npos)
        << lockcheck::testing::spec_error_of(too_long);
    auto wrong_topology = zk;
    wrong_topology["topology"] = "redis-single";
    EXPECT_NE(lockcheck::testing::spec_error_of(wrong_topology).find("cannot run recipe"), std::string::npos);
}
