// Power loss of real server nodes whose data lives on the lose-unsynced
// filesystem (clusters/power_loss.hpp, docs/nemesis.md): what each
// durability setting keeps of the writes its server acknowledged. Every
// test builds a topology as a run does (network namespaces, the run's
// cgroup, TopologyOptions::unsynced_data), writes, cuts the power, restores
// it and counts what survived. They need root and /dev/fuse (label fs) and
// fail rather than skip without them.
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

#include "clusters/command.hpp"
#include "clusters/etcd_cluster.hpp"
#include "clusters/mariadb_node.hpp"
#include "clusters/mysql_single.hpp"
#include "clusters/power_loss.hpp"
#include "clusters/redis_sentinel.hpp"
#include "clusters/redis_single.hpp"
#include "clusters/run_containment.hpp"
#include "clusters/zookeeper_ensemble.hpp"
#include "core/interruptible_sleep.hpp"
#include "harness/line_channel.hpp"
#include "harness/run_directory.hpp"
#include "harness/run_liveness.hpp"
#include "tests/support/integration_helpers.hpp"
#include "unsyncedfs/availability.hpp"
#include "unsyncedfs/mounts.hpp"

namespace lockcheck::testing {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

/// The mounts of run `run_id` in the mount table.
std::vector<MountEntry> mounts_of_run(const std::string& run_id) {
    std::vector<MountEntry> found;
    for (auto& entry : read_mount_table())
        if (entry.fsname.rfind("lockcheck:" + run_id + ":", 0) == 0) found.push_back(std::move(entry));
    return found;
}

/// One topology started the way a run starts it, its nodes' data on the
/// lose-unsynced filesystem unless `unsynced` is false.
template <typename Topology>
class Cluster {
public:
    Cluster(const std::string& name, int hosts, TopologyOptions options, bool unsynced = true)
        : run_id_(new_run_id()), alive_(run_id_), containment_(run_id_) {
        ::signal(SIGPIPE, SIG_IGN);  // as the controller does
        dir_ = fs::temp_directory_path() / ("lockcheck-power-loss-" + name + "-" + run_id_);
        fs::create_directories(dir_ / "scratch");
        options.name = name;
        options.dir = dir_ / "nodes";
        options.scratch_dir = dir_ / "scratch";
        options.credentials = fresh_server_credentials();
        if (unsynced)
            options.unsynced_data = UnsyncedDataOptions{UNSYNCEDFS_DAEMON, run_id_, "", [this](const std::string& m) {
                                                            std::lock_guard lock(mutex_);
                                                            failures_.push_back(m);
                                                        }};
        password_ = options.credentials.client_password;
        network_ = std::make_unique<TestNetwork>(run_id_, hosts, NetworkMode::Auto);
        topology_ = std::make_unique<Topology>(options, *network_);
        topology_->start();
        make_data_durable(*topology_);  // as a run does once its topology is ready
    }
    ~Cluster() {
        topology_->stop();
        EXPECT_TRUE(mounts_of_run(run_id_).empty()) << "a node's filesystem is still mounted after stop()";
        topology_.reset();
        network_.reset();
        // A failed test's nodes stay, for their logs (an exception is recorded as a failure only after this).
        if (!::testing::Test::HasFailure() && std::uncaught_exceptions() == 0) fs::remove_all(dir_);
    }

    Topology& topology() { return *topology_; }
    Node& node(std::size_t i) { return *topology_->nodes().at(i); }
    const std::string& run_id() const { return run_id_; }
    const std::string& password() const { return password_; }
    /// What the filesystems reported through on_failure.
    std::vector<std::string> failures() {
        std::lock_guard lock(mutex_);
        return failures_;
    }

private:
    std::string run_id_;
    RunAliveLock alive_;  ///< so that no `clean` (every run starts with one) takes this run for dead
    RunContainment containment_;
    fs::path dir_;
    std::string password_;
    std::unique_ptr<TestNetwork> network_;
    std::unique_ptr<Topology> topology_;
    std::mutex mutex_;
    std::vector<std::string> failures_;
};

/// Cuts the power of `nodes`, keeps them down 200 ms, starts them again.
void lose_power(const std::vector<Node*>& nodes) {
    const auto lost = power_loss(nodes, 200ms, std::stop_token{});
    ASSERT_TRUE(lost.has_value());
    for (std::size_t i = 0; i < nodes.size(); ++i)
        std::printf("power loss of %s: %zu file(s) restored, %zu directory change(s) undone\n",
                    nodes[i]->name().c_str(), (*lost)[i].files_restored, (*lost)[i].changes_undone);
}

// ---------------------------------------------------------------- Redis

/// One hiredis connection, authenticated.
class RedisClient {
public:
    RedisClient(const std::string& address, const std::string& password) {
        context_ = redisConnectWithTimeout(address.c_str(), kRedisPort, timeval{2, 0});
        if (!context_ || context_->err) throw std::runtime_error("cannot connect to redis at " + address);
        redisSetTimeout(context_, timeval{5, 0});
        if (command({"AUTH", password}) != "OK") throw std::runtime_error("AUTH refused");
    }
    ~RedisClient() { redisFree(context_); }

    /// The reply as text (status, string or integer); "" on errors.
    std::string command(const std::vector<std::string>& argv) {
        std::vector<const char*> args;
        std::vector<std::size_t> lengths;
        for (const auto& a : argv) args.push_back(a.c_str()), lengths.push_back(a.size());
        auto* reply = static_cast<redisReply*>(
            redisCommandArgv(context_, static_cast<int>(args.size()), args.data(), lengths.data()));
        if (!reply) return "";
        std::string text = reply->type == REDIS_REPLY_INTEGER ? std::to_string(reply->integer)
                           : reply->type == REDIS_REPLY_ERROR ? ""
                           : reply->str                       ? std::string(reply->str, reply->len)
                                                              : "";
        freeReplyObject(reply);
        return text;
    }
    /// SETs k<first>, k<first+1>, ... one at a time, each acknowledged, until
    /// `count` were or `limit` has passed. Returns how many were acknowledged.
    int set_keys(int first, int count, std::chrono::milliseconds limit) {
        const auto deadline = std::chrono::steady_clock::now() + limit;
        int acknowledged = 0;
        while (acknowledged < count && std::chrono::steady_clock::now() < deadline) {
            if (command({"SET", "k" + std::to_string(first + acknowledged), "v"}) != "OK") break;
            ++acknowledged;
        }
        return acknowledged;
    }
    int keys() { return std::stoi(command({"DBSIZE"})); }
    bool has(int key) { return command({"EXISTS", "k" + std::to_string(key)}) == "1"; }

private:
    redisContext* context_ = nullptr;
};

TopologyOptions redis_options(const std::string& persistence) {
    TopologyOptions o;
    o.persistence = persistence;
    return o;
}

TEST(PowerLoss, RedisWithAppendfsyncAlwaysKeepsEveryAcknowledgedSet) {
    Cluster<RedisSingle> cluster("redis-single", 1, redis_options("always"));
    Node& n1 = cluster.node(0);
    ASSERT_TRUE(is_mount_point(n1.dir() / "data")) << "the data directory is not on the filesystem";
    ASSERT_EQ(power_loss_nodes(cluster.topology()), std::vector<Node*>{&n1});
    int acknowledged = 0;
    {
        RedisClient client(n1.address(), cluster.password());
        acknowledged = client.set_keys(0, 2000, 30s);
    }
    ASSERT_EQ(acknowledged, 2000);
    lose_power({&n1});
    RedisClient client(n1.address(), cluster.password());
    EXPECT_EQ(client.keys(), acknowledged) << "appendfsync always lost acknowledged SETs";
    EXPECT_TRUE(cluster.failures().empty());
}

TEST(PowerLoss, RedisWithAppendfsyncEverysecLosesAcknowledgedSetsButNotToAProcessCrash) {
    Cluster<RedisSingle> cluster("redis-single", 1, redis_options("everysec"));
    Node& n1 = cluster.node(0);
    int before_crash = 0;
    {
        RedisClient client(n1.address(), cluster.password());
        before_crash = client.set_keys(0, 100'000, 1500ms);
    }
    n1.kill();  // a process crash: the kernel keeps what Redis wrote
    n1.start();
    int burst = 0;
    {
        RedisClient client(n1.address(), cluster.password());
        EXPECT_EQ(client.keys(), before_crash) << "a process crash lost acknowledged SETs";
        burst = client.set_keys(before_crash, 100'000, 2500ms);
    }
    const int acknowledged = before_crash + burst;
    lose_power({&n1});
    RedisClient client(n1.address(), cluster.password());
    const int survivors = client.keys();
    std::printf("appendfsync everysec: %d SETs acknowledged, %d survived the power loss, %d lost\n", acknowledged,
                survivors, acknowledged - survivors);
    EXPECT_LT(survivors, acknowledged) << "a burst right before the power loss lost nothing";
    EXPECT_GE(survivors, before_crash) << "SETs older than a second were lost (everysec syncs every second)";
    ASSERT_GT(survivors, 0);
    EXPECT_TRUE(client.has(survivors - 1)) << "the survivors are not the oldest SETs";
    EXPECT_FALSE(client.has(survivors));
}

TEST(PowerLoss, WithoutTheSwitchNothingIsMounted) {
    Cluster<RedisSingle> cluster("redis-single", 1, redis_options("always"), false);
    EXPECT_TRUE(mounts_of_run(cluster.run_id()).empty());
    EXPECT_TRUE(power_loss_nodes(cluster.topology()).empty());
    EXPECT_FALSE(cluster.node(0).can_lose_power());
    EXPECT_THROW(cluster.node(0).lose_power(), std::logic_error);
    EXPECT_TRUE(fs::is_directory(cluster.node(0).dir() / "data")) << "Redis keeps its data in data/ all the same";
}

TEST(PowerLoss, RedisServersKeepTheirDataOnTheFilesystemAndSentinelsNone) {
    Cluster<RedisSentinel> cluster("redis-sentinel", RedisSentinel::kRedisNodes + RedisSentinel::kSentinels,
                                   redis_options("always"));
    EXPECT_EQ(mounts_of_run(cluster.run_id()).size(), 3u) << "one mount per Redis server";
    EXPECT_EQ(power_loss_nodes(cluster.topology()), cluster.topology().redis_nodes());
}

TEST(PowerLoss, ADeadFilesystemDaemonIsReportedAndNeverHangsTheNode) {
    Cluster<RedisSingle> cluster("redis-single", 1, redis_options("always"));
    Node& n1 = cluster.node(0);
    const std::string fsname = unsyncedfs_fsname(cluster.run_id(), "n1");
    pid_t daemon = -1;
    for (const auto& process : processes_of_run(cluster.run_id()))
        if (process.find("--fsname " + fsname) != std::string::npos) daemon = std::stoi(process);
    ASSERT_GT(daemon, 0) << "no daemon of " << fsname << " among the run's processes";
    ::kill(daemon, SIGKILL);
    ASSERT_TRUE(poll_until([&] { return !cluster.failures().empty(); }, 5s, 20ms, std::stop_token{}))
        << "the daemon's death was not reported";
    const auto failures = cluster.failures();
    EXPECT_EQ(failures.size(), 1u);
    EXPECT_NE(failures.front().find("died"), std::string::npos) << failures.front();
    EXPECT_NE(failures.front().find((n1.dir() / "data").string()), std::string::npos) << failures.front();
    EXPECT_FALSE(is_mount_point(n1.dir() / "data")) << "a dead daemon left its mount";
    EXPECT_EQ(data_filesystem_failure(cluster.topology()), failures.front());
    EXPECT_THROW(n1.lose_power(), UnsyncedFsError);
    EXPECT_THROW(n1.start(), NodeStartError) << "a node restarted on a dead filesystem";
    EXPECT_EQ(cluster.failures().size(), 1u) << "reported once";
}

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

    int create(const std::string& path) {
        return zoo_create(handle_, path.c_str(), "v", 1, &ZOO_OPEN_ACL_UNSAFE, 0, nullptr, 0);
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
