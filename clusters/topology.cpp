#include "clusters/topology.hpp"

#include <stdexcept>

#include "clusters/redis_independent.hpp"
#include "clusters/redis_sentinel.hpp"
#include "clusters/redis_single.hpp"
#include "clusters/mysql_replicated.hpp"
#include "clusters/mysql_single.hpp"

namespace lockcheck {

std::vector<std::string> topology_names() { return {"redis-single", "redis-sentinel", "redis-independent", "mysql-single", "mysql-replicated"}; }

int topology_node_count(const TopologyOptions& options) {
    if (options.name == "redis-single") return 1;
    if (options.name == "redis-sentinel") return RedisSentinel::kRedisNodes + RedisSentinel::kSentinels;
    if (options.name == "redis-independent")
        return options.node_count > 0 ? options.node_count : RedisIndependent::kDefaultNodes;
    if (options.name == "mysql-single") return 1;
    if (options.name == "mysql-replicated") return 2;
    throw std::invalid_argument("unknown topology '" + options.name + "'");
}

std::unique_ptr<Topology> make_topology(const TopologyOptions& options, const TestNetwork& network) {
    if (options.name == "redis-single") return std::make_unique<RedisSingle>(options, network);
    if (options.name == "redis-sentinel") return std::make_unique<RedisSentinel>(options, network);
    if (options.name == "redis-independent") return std::make_unique<RedisIndependent>(options, network);
    if (options.name == "mysql-single") return std::make_unique<MysqlSingle>(options, network);
    if (options.name == "mysql-replicated") return std::make_unique<MysqlReplicated>(options, network);
    throw std::invalid_argument("unknown topology '" + options.name + "'");
}

}  // namespace lockcheck
