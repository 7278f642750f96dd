#include "clusters/redis_sentinel.hpp"

#include <fstream>
#include <map>
#include <thread>

#include "clusters/redis_admin.hpp"

namespace lockcheck {
namespace {

NodeProgram sentinel_program(const std::filesystem::path& dir, const std::string& address,
                             const std::string& primary_address) {
    std::filesystem::create_directories(dir);
    const auto conf = dir / "sentinel.conf";  // Sentinel rewrites its config: one writable file each
    std::ofstream out(conf);
    out << "# written by lockcheck\n"
        << "bind " << address << "\n"
        << "port " << kSentinelPort << "\n"
        // Without these, in loopback mode every sentinel would connect from and
        // announce 127.0.0.1, and they would never find each other.
        << "bind-source-addr " << address << "\n"
        << "sentinel announce-ip " << address << "\n"
        << "protected-mode no\n"
        << "daemonize no\n"
        << "logfile \"\"\n"
        << "dir " << dir.string() << "\n"
        << "sentinel monitor " << kSentinelMasterName << " " << primary_address << " " << kRedisPort << " 2\n"
        << "sentinel down-after-milliseconds " << kSentinelMasterName << " 1000\n"
        << "sentinel failover-timeout " << kSentinelMasterName << " 3000\n"
        << "sentinel parallel-syncs " << kSentinelMasterName << " 2\n";
    if (!out) throw std::runtime_error("cannot write " + conf.string());
    return NodeProgram{{"redis-sentinel", conf.string()},
                       [](const std::string& a) { return redis_answers_ping(a, kSentinelPort); }};
}

int as_int(const std::optional<std::string>& text) {
    try {
        return text ? std::stoi(*text) : -1;
    } catch (const std::exception&) {
        return -1;
    }
}

}  // namespace

RedisSentinel::RedisSentinel(const TopologyOptions& options, const TestNetwork& network) {
    const auto persistence = redis_persistence_from_string(options.persistence);
    const std::string primary = network.address(0);
    for (int i = 0; i < kRedisNodes; ++i) {
        // bind-source-addr / replica-announce-ip: in loopback mode a replica
        // would otherwise connect from, and be known as, 127.0.0.1.
        std::vector<std::string> extra{"repl-diskless-sync-delay 0", "bind-source-addr " + network.address(i),
                                       "replica-announce-ip " + network.address(i)};
        if (i > 0) extra.push_back("replicaof " + primary + " " + std::to_string(kRedisPort));
        redis_.push_back(make_topology_node(options, network, i, "n" + std::to_string(i + 1),
                                            [&](const auto& dir, const auto& address) {
                                                return redis_server_program(dir, address, persistence, extra);
                                            }));
    }
    for (int i = 0; i < kSentinels; ++i) {
        sentinels_.push_back(make_topology_node(options, network, kRedisNodes + i, "s" + std::to_string(i + 1),
                                                [&](const auto& dir, const auto& address) {
                                                    return sentinel_program(dir, address, primary);
                                                }));
    }
}

void RedisSentinel::start() {
    for (auto& n : redis_) n->start();
    for (auto& s : sentinels_) s->start();
    if (!wait_settled(std::chrono::seconds(20)))
        throw NodeStartError("topology redis-sentinel did not settle within 20 s (replicas in sync, sentinels "
                             "seeing each other); see the nodes' server.log");
}

void RedisSentinel::stop() {
    for (auto& s : sentinels_) s->stop();
    for (auto& n : redis_) n->stop();
}

std::vector<Node*> RedisSentinel::nodes() {
    auto all = redis_nodes();
    for (auto* s : sentinels()) all.push_back(s);
    return all;
}

std::vector<Node*> RedisSentinel::redis_nodes() { return node_pointers(redis_); }

std::vector<Node*> RedisSentinel::sentinels() { return node_pointers(sentinels_); }

std::vector<std::string> RedisSentinel::client_endpoints() const {
    return node_endpoints(sentinels_, kSentinelPort, kSentinelEndpointPrefix);
}

Node* RedisSentinel::primary() {
    std::map<std::string, int> votes;
    for (auto& s : sentinels_) {
        auto reply = redis_admin_command(s->address(), kSentinelPort,
                                         {"SENTINEL", "get-master-addr-by-name", kSentinelMasterName});
        if (reply && reply->size() == 2) ++votes[reply->front()];
    }
    const std::string* best = nullptr;
    int best_votes = 0;
    for (const auto& [address, count] : votes)
        if (count > best_votes) best = &address, best_votes = count;
    if (!best) return nullptr;
    for (auto& n : redis_)
        if (n->address() == *best) return n.get();
    return nullptr;
}

bool RedisSentinel::settled(Node& primary, int replicas) {
    auto info = redis_admin_command(primary.address(), kRedisPort, {"INFO", "replication"});
    if (!info || info->empty() || info_field(info->front(), "role") != "master") return false;
    int online = 0;
    for (int i = 0; i < replicas + 2; ++i) {
        auto slave = info_field(info->front(), "slave" + std::to_string(i));
        if (slave && slave->find("state=online") != std::string::npos) ++online;
    }
    if (online < replicas) return false;
    for (auto& s : sentinels_) {
        auto master = redis_admin_command(s->address(), kSentinelPort, {"SENTINEL", "MASTER", kSentinelMasterName});
        if (!master || pair_field(*master, "ip") != primary.address() ||
            as_int(pair_field(*master, "num-other-sentinels")) != kSentinels - 1 ||
            as_int(pair_field(*master, "num-slaves")) < replicas)
            return false;
        const auto flags = pair_field(*master, "flags").value_or("");
        if (flags != "master") return false;  // not s_down / o_down / failover_in_progress
    }
    return true;
}

bool RedisSentinel::wait_settled(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
        if (Node* p = primary(); p && settled(*p, kRedisNodes - 1)) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
}

}  // namespace lockcheck
