// Power loss of real Redis nodes whose data lives on the lose-unsynced
// filesystem (clusters/power_loss.hpp, docs/nemesis.md): what each
// appendfsync setting keeps of the SETs Redis acknowledged, and how a dead
// filesystem daemon is reported. Every test builds a topology as a run does
// (network namespaces, the run's cgroup, TopologyOptions::unsynced_data),
// writes, cuts the power, restores it and counts what survived. They need
// root and /dev/fuse (label fs) and fail rather than skip without them.
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
    /// Waits until Redis has written its AOF buffer to the file (INFO
    /// persistence: aof_buffer_length 0), for at most `limit`.
    bool aof_buffer_written(std::chrono::milliseconds limit) {
        const auto deadline = std::chrono::steady_clock::now() + limit;
        do {
            if (command({"INFO", "persistence"}).find("aof_buffer_length:0\r\n") != std::string::npos) return true;
            std::this_thread::sleep_for(20ms);
        } while (std::chrono::steady_clock::now() < deadline);
        return false;
    }
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
        // With everysec Redis postpones its write of the AOF buffer, up to
        // 2 s, while a background fsync is still running, and answers the
        // SETs all the same (flushAppendOnlyFile): a crash in that window
        // loses acknowledged SETs (on a loaded machine, about half of
        // them). What this test holds is that the filesystem loses nothing
        // Redis wrote, so the crash comes once Redis has written its buffer.
        ASSERT_TRUE(client.aof_buffer_written(5s)) << "Redis kept its AOF buffer unwritten for 5 s";
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

}  // namespace
}  // namespace lockcheck::testing
