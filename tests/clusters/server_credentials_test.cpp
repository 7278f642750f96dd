// The run's credentials: random per run, given only to those who need them,
// and kept out of error messages; the configs holding them are 0600.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "host/private_file.hpp"
#include "clusters/servers/redis_node.hpp"
#include "clusters/servers/server_credentials.hpp"
#include "recipes/protocol.hpp"

using namespace lockcheck;
namespace fs = std::filesystem;

namespace {

fs::path scratch(const std::string& name) {
    auto dir = fs::temp_directory_path() / ("lockcheck-credentials-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

unsigned mode_of(const fs::path& path) {
    struct stat st {};
    EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
    return st.st_mode & 07777;
}

std::string text_of(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

TEST(ServerCredentials, PasswordsAreFreshRandomHex) {
    const auto a = fresh_server_credentials();
    const auto b = fresh_server_credentials();
    EXPECT_EQ(a.client_password.size(), 32u) << "128 bits";
    EXPECT_EQ(a.client_password.find_first_not_of("0123456789abcdef"), std::string::npos);
    EXPECT_NE(a.client_password, b.client_password) << "a new password per run";
    EXPECT_NE(a.client_password, a.replication_password) << "the replica's account has its own";
    EXPECT_NE(a.client_password, "lockcheck") << "not the old hard-coded password";
}

TEST(ServerCredentials, EachFamilyLogsInItsOwnWay) {
    const ServerCredentials c{"clientpw", "replpw"};
    EXPECT_EQ(client_credentials("redis-single", c), (ClientCredentials{"default", "clientpw"}));
    EXPECT_EQ(client_credentials("redis-sentinel", c), (ClientCredentials{"default", "clientpw"}));
    EXPECT_EQ(client_credentials("mysql-replicated", c), (ClientCredentials{"lockcheck", "clientpw"}));
    EXPECT_FALSE(client_credentials("zookeeper", c).has_value());
    EXPECT_FALSE(client_credentials("etcd", c).has_value());
}

TEST(ServerCredentials, ABrokenInitNeverQuotesThePassword) {
    WorkerInit init;
    init.auth = ClientCredentials{"default", "0123456789abcdef0123456789abcdef"};
    const std::string line = encode_init(init);
    for (const std::string& broken : {line.substr(0, line.size() - 1), "[" + line + "]"}) {
        try {
            decode_init(broken);
            ADD_FAILURE() << "a broken init was accepted";
        } catch (const ProtocolError& e) {
            EXPECT_EQ(std::string(e.what()).find("0123456789abcdef"), std::string::npos) << e.what();
        }
    }
}

TEST(PrivateFile, IsWrittenOwnerOnlyEvenOverAReadableFile) {
    const auto dir = scratch("mode");
    const auto path = dir / "redis.conf";
    std::ofstream(path) << "old";
    fs::permissions(path,
                    fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read);
    write_private_file(path, "requirepass x\n");
    EXPECT_EQ(mode_of(path), 0600u);
    EXPECT_EQ(text_of(path), "requirepass x\n");
    fs::remove_all(dir);
}

TEST(PrivateFile, NeverWritesThroughASymlink) {
    const auto dir = scratch("symlink");
    std::ofstream(dir / "target") << "keep";
    fs::create_symlink(dir / "target", dir / "redis.conf");
    EXPECT_THROW(write_private_file(dir / "redis.conf", "requirepass x\n"), std::runtime_error);
    EXPECT_EQ(text_of(dir / "target"), "keep");
    fs::remove_all(dir);
}

TEST(RedisServerConfig, AsksForThePasswordAndIsOwnerOnly) {
    const auto dir = scratch("redis") / "a b\"c\nrequirepass pwned";
    redis_server_program(dir, "10.1.2.3", RedisPersistence::None, "s3cret");
    const auto conf = text_of(dir / "redis.conf");
    EXPECT_EQ(mode_of(dir / "redis.conf"), 0600u);
    EXPECT_NE(conf.find("\nrequirepass \"s3cret\"\n"), std::string::npos) << conf;
    EXPECT_NE(conf.find("\nmasterauth \"s3cret\"\n"), std::string::npos) << "replicas log in too";
    EXPECT_NE(conf.find("\nbind \"10.1.2.3\"\n"), std::string::npos) << conf;
    EXPECT_EQ(conf.find("\nrequirepass pwned"), std::string::npos) << "the directory cannot add a line:\n" << conf;
    fs::remove_all(dir.parent_path());
}
