// Power loss of real MariaDB, ZooKeeper and etcd nodes whose data lives on
// the lose-unsynced filesystem (clusters/power_loss.hpp, docs/nemesis.md):
// what each durability setting keeps of the writes its server acknowledged,
// and `lockcheck clean` after kill -9 of a process holding such a topology.
// Built as a run builds them (tests/clusters/power_loss_cluster.hpp). They
// need root and /dev/fuse (label fs) and fail rather than skip without them.
#include <gtest/gtest.h>
#include <hiredis/hiredis.h>
#include <signal.h>
#include <zookeeper/zookeeper.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include "host/system_command.hpp"
#include "clusters/topologies/etcd_cluster.hpp"
#include "clusters/servers/mariadb_node.hpp"
#include "clusters/topologies/mysql_single.hpp"
#include "clusters/power_loss.hpp"
#include "clusters/topologies/redis_sentinel.hpp"
#include "clusters/topologies/redis_single.hpp"
#include "host/run_containment.hpp"
#include "clusters/topologies/zookeeper_ensemble.hpp"
#include "core/interruptible_sleep.hpp"
#include "host/line_channel.hpp"
#include "run/run_directory.hpp"
#include "run/run_liveness.hpp"
#include "tests/support/integration_helpers.hpp"
#include "unsyncedfs/availability.hpp"
#include "unsyncedfs/mounts.hpp"

#include "tests/clusters/power_loss_cluster.hpp"

namespace lockcheck::testing {
namespace {

// ---------------------------------------------------------------- MariaDB

TopologyOptions mariadb_options(int flush_log_at_trx_commit, int sync_binlog) {
    TopologyOptions o;
    o.durability.mariadb_flush_log_at_trx_commit = flush_log_at_trx_commit;
    o.durability.mariadb_sync_binlog = sync_binlog;
    return o;
}

/// Commits `rows` one-row INSERTs (autocommit, one connection) into a new
/// table, cuts the power, restores it. Returns the rows that survived.
int rows_after_power_loss(Cluster<MysqlSingle>& cluster, int rows) {
    Node& n1 = cluster.node(0);
    const std::string table = std::string("`") + kMariadbDatabase + "`.power_loss";
    // The table itself must survive whatever the settings: FLUSH LOGS syncs
    // InnoDB's redo log and starts a new, synced binary log.
    mariadb_admin(n1, {"CREATE TABLE " + table + " (id INT PRIMARY KEY) ENGINE=InnoDB", "FLUSH LOGS"});
    std::vector<std::string> inserts;
    for (int i = 0; i < rows; ++i) inserts.push_back("INSERT INTO " + table + " VALUES (" + std::to_string(i) + ")");
    mariadb_admin(n1, inserts);  // throws unless every INSERT was committed
    lose_power({&n1});  // at once: InnoDB syncs its log about once a second with innodb_flush_log_at_trx_commit 2
    const auto count = mariadb_admin_scalar(n1, "SELECT COUNT(*) FROM " + table, 10s);
    EXPECT_TRUE(count.has_value()) << "the table is gone";
    return count ? std::stoi(*count) : -1;
}

TEST(PowerLoss, MariadbWithEveryCommitSyncedKeepsEveryCommittedRow) {
    Cluster<MysqlSingle> cluster("mysql-single", 1, mariadb_options(1, 1));
    ASSERT_TRUE(is_mount_point(cluster.node(0).dir() / "data"));
    const int survivors = rows_after_power_loss(cluster, 200);
    std::printf("innodb_flush_log_at_trx_commit=1, sync_binlog=1: %d of 200 committed rows survived\n", survivors);
    EXPECT_EQ(survivors, 200);
    EXPECT_TRUE(cluster.failures().empty());
}

TEST(PowerLoss, MariadbWithoutSyncsLosesTheLastCommits) {
    Cluster<MysqlSingle> cluster("mysql-single", 1, mariadb_options(2, 0));
    const int survivors = rows_after_power_loss(cluster, 200);
    std::printf("innodb_flush_log_at_trx_commit=2, sync_binlog=0: %d of 200 committed rows survived\n", survivors);
    EXPECT_GE(survivors, 0);
    EXPECT_LT(survivors, 200) << "commits made within the last second survived without a sync";
}

TEST(PowerLoss, MariadbDefaultSyncBinlogLosesTheLastCommitEvenWithEveryRedoLogSynced) {
    Cluster<MysqlSingle> cluster("mysql-single", 1, mariadb_options(1, 0));
    const int survivors = rows_after_power_loss(cluster, 200);
    std::printf("innodb_flush_log_at_trx_commit=1, sync_binlog=0: %d of 200 committed rows survived\n", survivors);
    // The last commit was prepared in the (synced) redo log, but its binlog
    // event was never synced: crash recovery rolls it back. Every earlier one
    // is durable, its commit record synced with the next commit's prepare.
    EXPECT_LT(survivors, 200);
    EXPECT_GE(survivors, 190);
}

// ---------------------------------------------------------------- ZooKeeper

/// A synchronous ZooKeeper client of the whole ensemble.
class ZooKeeperClient {
public:
    explicit ZooKeeperClient(const std::vector<std::string>& endpoints) {
        std::string hosts;
        for (const auto& e : endpoints) hosts += (hosts.empty() ? "" : ",") + e;
        zoo_set_debug_level(ZOO_LOG_LEVEL_ERROR);
        handle_ = zookeeper_init(hosts.c_str(), &ZooKeeperClient::watch, 10000, nullptr, this, 0);
        if (!handle_) throw std::runtime_error("zookeeper_init failed");
        std::unique_lock lock(mutex_);
        if (!connected_changed_.wait_for(lock, 20s, [&] { return connected_; }))
            throw std::runtime_error("no ZooKeeper session within 20 s");
    }
    ~ZooKeeperClient() { zookeeper_close(handle_); }

    /// Creates `path`; ZOK once the ensemble has acknowledged it. A connection
    /// lost on the way (a server slow to answer under load: the client moves to
    /// another) is retried in the same session, up to 5 times: ZNODEEXISTS
    /// then means the first try was applied, and answers ZOK too.
    int create(const std::string& path) {
        int rc = ZOK;
        for (int attempt = 0; attempt < 5; ++attempt) {
            rc = zoo_create(handle_, path.c_str(), "v", 1, &ZOO_OPEN_ACL_UNSAFE, 0, nullptr, 0);
            if (rc == ZNODEEXISTS && attempt > 0) return ZOK;
            if (rc != ZCONNECTIONLOSS && rc != ZOPERATIONTIMEOUT) return rc;
            std::unique_lock lock(mutex_);
            connected_changed_.wait_for(lock, 10s, [&] { return connected_; });
        }
        return rc;
    }
    bool exists(const std::string& path) { return zoo_exists(handle_, path.c_str(), 0, nullptr) == ZOK; }

private:
    zhandle_t* handle_ = nullptr;
    std::mutex mutex_;
    std::condition_variable connected_changed_;
    bool connected_ = false;

    static void watch(zhandle_t*, int type, int state, const char*, void* context) {
        if (type != ZOO_SESSION_EVENT) return;
        auto* self = static_cast<ZooKeeperClient*>(context);
        std::lock_guard lock(self->mutex_);
        self->connected_ = state == ZOO_CONNECTED_STATE;
        self->connected_changed_.notify_all();
    }
};

/// Creates `count` znodes on the ensemble, each acknowledged, cuts the power
/// of all three servers at once, restores it and waits for a leader.
/// Returns how many znodes survived.
int znodes_after_power_loss(Cluster<ZooKeeperEnsemble>& cluster, int count) {
    {
        ZooKeeperClient client(cluster.topology().client_endpoints());
        for (int i = 0; i < count; ++i) EXPECT_EQ(client.create("/k" + std::to_string(i)), ZOK);
    }
    lose_power(power_loss_nodes(cluster.topology()));
    EXPECT_TRUE(poll_until([&] { return cluster.topology().leader_elected(); }, 30s, 100ms, std::stop_token{}))
        << "no leader after the power came back";
    ZooKeeperClient client(cluster.topology().client_endpoints());
    int survivors = 0;
    for (int i = 0; i < count; ++i) survivors += client.exists("/k" + std::to_string(i));
    return survivors;
}

TopologyOptions zookeeper_options(bool force_sync) {
    TopologyOptions o;
    o.durability.zookeeper_force_sync = force_sync;
    return o;
}

TEST(PowerLoss, ZooKeeperWithForceSyncKeepsEveryAcknowledgedWriteWhenAllServersLosePower) {
    Cluster<ZooKeeperEnsemble> cluster("zookeeper", ZooKeeperEnsemble::kServers, zookeeper_options(true));
    ASSERT_EQ(power_loss_nodes(cluster.topology()).size(), 3u);
    const int survivors = znodes_after_power_loss(cluster, 100);
    std::printf("forceSync=yes: %d of 100 acknowledged creates survived\n", survivors);
    EXPECT_EQ(survivors, 100);
    EXPECT_TRUE(cluster.failures().empty());
}

TEST(PowerLoss, ZooKeeperWithoutForceSyncLosesAcknowledgedWritesWhenAllServersLosePower) {
    Cluster<ZooKeeperEnsemble> cluster("zookeeper", ZooKeeperEnsemble::kServers, zookeeper_options(false));
    const int survivors = znodes_after_power_loss(cluster, 100);
    std::printf("forceSync=no: %d of 100 acknowledged creates survived\n", survivors);
    EXPECT_LT(survivors, 100);
}

// ---------------------------------------------------------------- etcd

TEST(PowerLoss, EtcdRunsOnTheFilesystemAndKeepsItsKeysWhenAllMembersLosePower) {
    Cluster<EtcdCluster> cluster("etcd", EtcdCluster::kMembers, TopologyOptions{});
    const auto members = power_loss_nodes(cluster.topology());
    ASSERT_EQ(members.size(), 3u);
    const std::string endpoints = "--endpoints=" + cluster.topology().client_endpoints().front();
    for (int i = 0; i < 20; ++i)
        ASSERT_EQ(run_command({"etcdctl", endpoints, "put", "k" + std::to_string(i), "v"}).exit_code, 0);
    lose_power(members);
    ASSERT_TRUE(poll_until([&] { return cluster.topology().leader_agreed(); }, 30s, 100ms, std::stop_token{}))
        << "no leader after the power came back";
    const auto keys = run_command({"etcdctl", endpoints, "get", "k", "--prefix", "--keys-only"});
    ASSERT_EQ(keys.exit_code, 0) << keys.output;
    std::istringstream lines(keys.output);
    int survivors = 0;
    for (std::string line; std::getline(lines, line);) survivors += !line.empty();
    EXPECT_EQ(survivors, 20) << keys.output;
    EXPECT_TRUE(cluster.failures().empty());
}

// ---------------------------------------------------------------- kill -9 and clean

TEST(PowerLoss, CleanUnmountsWhatAKilledHolderOfSuchATopologyLeft) {
    const std::string run_id = new_run_id();
    const auto dir = fs::temp_directory_path() / ("lockcheck-power-loss-holder-" + run_id);
    fs::create_directories(dir);
    ChildProcess holder(ChildSpec{{POWER_LOSS_HOLDER, run_id, (dir / "nodes").string(), UNSYNCEDFS_DAEMON},
                                  std::nullopt,
                                  dir / "holder.log",
                                  true});
    LineChannel channel(holder.stdout_fd(), holder.stdin_fd());
    std::string line;
    ASSERT_EQ(channel.read_line(line, std::chrono::steady_clock::now() + 60s), LineChannel::ReadStatus::Line)
        << read_file(dir / "holder.log");
    ASSERT_EQ(line, "ready") << read_file(dir / "holder.log");
    ASSERT_EQ(mounts_of_run(run_id).size(), 3u) << "the holder's three Redis servers are not on the filesystem";

    kill_controller_only(holder);
    EXPECT_FALSE(mounts_of_run(run_id).empty()) << "nothing was left for clean: the test proves nothing";
    const auto output = run_clean(dir);

    EXPECT_TRUE(mounts_of_run(run_id).empty()) << "clean left mounts of the killed run:\n" << output;
    std::ifstream proc_mounts("/proc/mounts");
    std::stringstream table;
    table << proc_mounts.rdbuf();
    EXPECT_EQ(table.str().find("lockcheck:" + run_id), std::string::npos) << table.str();
    RunOutcome run;
    run.run_id = run_id;
    expect_nothing_left(run);
    if (!::testing::Test::HasFailure()) fs::remove_all(dir);
}

}  // namespace
}  // namespace lockcheck::testing
