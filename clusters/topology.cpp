#include "clusters/topology.hpp"

#include <stdexcept>

#include "clusters/clock_offset.hpp"
#include "core/interruptible_sleep.hpp"
#include "clusters/redis_independent.hpp"
#include "clusters/redis_sentinel.hpp"
#include "clusters/redis_single.hpp"
#include "clusters/zookeeper_ensemble.hpp"
#include "clusters/etcd_cluster.hpp"
#include "clusters/mysql_replicated.hpp"
#include "clusters/mysql_single.hpp"

namespace lockcheck {

std::unique_ptr<Node> make_topology_node(
    const TopologyOptions& options, const TestNetwork& network, int host, const std::string& name,
    const std::function<NodeProgram(const std::filesystem::path& dir, const std::string& address)>& program) {
    const auto dir = options.dir / name;
    // Owner only: the configs in it hold the run's password, and Sentinel
    // rewrites its own with the mode its umask gives.
    std::filesystem::create_directories(dir);
    std::filesystem::permissions(dir, std::filesystem::perms::owner_all);
    auto node_program = program(dir, network.address(host));
    auto data = make_node_data_mount(options.unsynced_data, name, dir, node_program.data_dir, node_program.metadata_rule);
    return std::make_unique<Node>(name, network.address(host), network.netns(host), dir, std::move(node_program),
                                  clock_environment(options.clock_library, dir), options.interrupt, std::move(data));
}

void await_settled(const std::string& topology, const std::stop_token& interrupt, std::chrono::seconds timeout,
                   const std::function<bool()>& settled, const std::function<std::string()>& why_not) {
    if (poll_until(settled, timeout, std::chrono::milliseconds(50), interrupt)) return;
    if (interrupt.stop_requested()) throw NodeStartError("topology " + topology + ": interrupted while starting");
    throw NodeStartError("topology " + topology + " " + why_not());
}

std::vector<Node*> primary_or_all(Topology& topology) {
    if (Node* primary = topology.primary()) return {primary};
    return topology.nodes();
}

std::vector<std::string> topology_names() {
    return {"redis-single", "redis-sentinel", "redis-independent", "zookeeper", "etcd", "mysql-single",
            "mysql-replicated"};
}

int topology_node_count(const TopologyOptions& options) {
    if (options.name == "redis-single") return 1;
    if (options.name == "redis-sentinel") return RedisSentinel::kRedisNodes + RedisSentinel::kSentinels;
    if (options.name == "redis-independent")
        return options.node_count > 0 ? options.node_count : RedisIndependent::kDefaultNodes;
    if (options.name == "zookeeper") return ZooKeeperEnsemble::kServers;
    if (options.name == "etcd") return EtcdCluster::kMembers;
    if (options.name == "mysql-single") return 1;
    if (options.name == "mysql-replicated") return 2;
    throw std::invalid_argument("unknown topology '" + options.name + "'");
}

std::unique_ptr<Topology> make_topology(const TopologyOptions& options, const TestNetwork& network) {
    if (options.name == "redis-single") return std::make_unique<RedisSingle>(options, network);
    if (options.name == "redis-sentinel") return std::make_unique<RedisSentinel>(options, network);
    if (options.name == "redis-independent") return std::make_unique<RedisIndependent>(options, network);
    if (options.name == "zookeeper") return std::make_unique<ZooKeeperEnsemble>(options, network);
    if (options.name == "etcd") return std::make_unique<EtcdCluster>(options, network);
    if (options.name == "mysql-single") return std::make_unique<MysqlSingle>(options, network);
    if (options.name == "mysql-replicated") return std::make_unique<MysqlReplicated>(options, network);
    throw std::invalid_argument("unknown topology '" + options.name + "'");
}

}  // namespace lockcheck
