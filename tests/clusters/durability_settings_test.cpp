// The durability settings reach each server's real config (and its data
// directory is the one the lose-unsynced filesystem would be mounted over);
// values a server has no meaning for are refused.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "clusters/servers/etcd_node.hpp"
#include "clusters/servers/mariadb_node.hpp"
#include "clusters/servers/redis_node.hpp"
#include "clusters/servers/zookeeper_node.hpp"

namespace lockcheck {
namespace {

namespace fs = std::filesystem;

class DurabilityConfig : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("lockcheck-durability-test-" + std::to_string(::getpid()));
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    static std::string text_of(const fs::path& path) {
        std::ifstream in(path);
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    }
    static bool has_arg(const NodeProgram& program, const std::string& arg) {
        return std::find(program.argv.begin(), program.argv.end(), arg) != program.argv.end();
    }

    fs::path dir_;
};

TEST_F(DurabilityConfig, RedisKeepsItsDataInASubdirectoryOfItsOwn) {
    const auto program = redis_server_program(dir_, "10.1.2.3", RedisPersistence::EverySec, "pw");
    const auto conf = text_of(dir_ / "redis.conf");
    EXPECT_EQ(program.data_dir, dir_ / "data");
    EXPECT_NE(conf.find("\ndir \"" + (dir_ / "data").string() + "\"\n"), std::string::npos) << conf;
    EXPECT_NE(conf.find("\nappendfsync everysec\n"), std::string::npos) << conf;
    EXPECT_EQ(fs::status(dir_ / "data").permissions() & fs::perms::group_all, fs::perms::none);
    EXPECT_EQ(program.metadata_rule, "dir-fsync");
}

TEST_F(DurabilityConfig, ZooKeeperForceSyncIsWrittenToZooCfg) {
    const auto synced = zookeeper_server_program(dir_ / "yes", 1, {{"10.9.0.1"}});
    const auto unsynced = zookeeper_server_program(dir_ / "no", 1, {{"10.9.0.1"}}, false);
    EXPECT_NE(text_of(dir_ / "yes" / "zoo.cfg").find("\nforceSync=yes\n"), std::string::npos);
    EXPECT_NE(text_of(dir_ / "no" / "zoo.cfg").find("\nforceSync=no\n"), std::string::npos);
    EXPECT_EQ(unsynced.data_dir, dir_ / "no" / "data");
    EXPECT_NE(text_of(dir_ / "no" / "zoo.cfg").find("dataDir=" + (dir_ / "no" / "data").string()), std::string::npos);
    EXPECT_EQ(synced.metadata_rule, "any-fsync") << "ZooKeeper never fsyncs a directory";
}

TEST_F(DurabilityConfig, MariadbGetsBothSettingsOnItsCommandLine) {
    DurabilitySettings weak;
    weak.mariadb_flush_log_at_trx_commit = 2;
    weak.mariadb_sync_binlog = 0;
    const auto program = mariadb_server_program(dir_, "10.1.2.3", 1, weak, {"--read-only=1"});
    EXPECT_TRUE(has_arg(program, "--innodb-flush-log-at-trx-commit=2"));
    EXPECT_TRUE(has_arg(program, "--sync-binlog=0"));
    EXPECT_EQ(program.argv.back(), "--read-only=1") << "the topology's own arguments come last";
    EXPECT_EQ(program.data_dir, dir_ / "data");
    EXPECT_TRUE(has_arg(program, "--datadir=" + (dir_ / "data").string()));
    EXPECT_EQ(program.metadata_rule, "any-fsync") << "MariaDB never fsyncs the directory of a new binary log";

    DurabilitySettings safe;
    safe.mariadb_sync_binlog = 1;
    const auto safe_program = mariadb_server_program(dir_, "10.1.2.3", 1, safe);
    EXPECT_TRUE(has_arg(safe_program, "--innodb-flush-log-at-trx-commit=1"));
    EXPECT_TRUE(has_arg(safe_program, "--sync-binlog=1"));
    EXPECT_FALSE(has_arg(safe_program, "--innodb-doublewrite=0")) << "doublewrite is MariaDB's default";

    DurabilitySettings single_write;
    single_write.mariadb_doublewrite = false;
    EXPECT_TRUE(has_arg(mariadb_server_program(dir_, "10.1.2.3", 1, single_write), "--innodb-doublewrite=0"));
}

TEST_F(DurabilityConfig, MariadbRefusesValuesItHasNoMeaningFor) {
    DurabilitySettings bad;
    bad.mariadb_flush_log_at_trx_commit = 3;
    EXPECT_THROW(mariadb_server_program(dir_, "10.1.2.3", 1, bad), std::invalid_argument);
    bad.mariadb_flush_log_at_trx_commit = -1;
    EXPECT_THROW(mariadb_server_program(dir_, "10.1.2.3", 1, bad), std::invalid_argument);
    bad.mariadb_flush_log_at_trx_commit = 1;
    bad.mariadb_sync_binlog = 2;
    EXPECT_THROW(mariadb_server_program(dir_, "10.1.2.3", 1, bad), std::invalid_argument);
}

TEST_F(DurabilityConfig, EtcdSkipsFsyncOnlyWhenAsked) {
    const EtcdBootstrap bootstrap{"n1=http://10.1.2.3:2380", "t"};
    const auto data = dir_ / "scratch" / "data";
    const auto synced = etcd_server_program(dir_, data, "n1", "10.1.2.3", bootstrap);
    const auto unsynced = etcd_server_program(dir_, data, "n1", "10.1.2.3", bootstrap, false);
    EXPECT_FALSE(has_arg(synced, "--unsafe-no-fsync"));
    EXPECT_TRUE(has_arg(unsynced, "--unsafe-no-fsync"));
    EXPECT_EQ(synced.data_dir, data);
}

}  // namespace
}  // namespace lockcheck
