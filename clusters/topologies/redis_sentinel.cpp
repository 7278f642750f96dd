#include "clusters/topologies/redis_sentinel.hpp"

#include <map>

#include "clusters/network/peer_links.hpp"
#include "host/private_file.hpp"
#include "clusters/servers/redis_admin.hpp"

namespace lockcheck {
namespace {

/// sentinel.conf (mode 0600; Sentinel rewrites it, one writable file each):
/// Sentinel itself asks for `password` (requirepass, which it also uses with
/// the other sentinels) and logs in to the servers it watches with it (auth-pass).
/// `announce_port` is the port the other sentinels reach it at (its face
/// with peer links, else kSentinelPort); `primary_port` the primary's.
NodeProgram sentinel_program(const std::filesystem::path& dir, const std::string& address, int announce_port,
                             const std::string& primary_address, int primary_port, const std::string& password) {
    std::filesystem::create_directories(dir);
    const std::string master = kSentinelMasterName;
    std::string text = "# written by lockcheck\n";
    for (const auto& line : std::vector<std::string>{
             redis_config_line("bind", {address}), "port " + std::to_string(kSentinelPort),
             // Without these, in loopback mode every sentinel would connect from and
             // announce 127.0.0.1, and they would never find each other.
             redis_config_line("bind-source-addr", {address}), redis_config_line("sentinel announce-ip", {address}),
             "sentinel announce-port " + std::to_string(announce_port), "protected-mode no", "daemonize no",
             "logfile \"\"", redis_config_line("dir", {dir.string()}), redis_config_line("requirepass", {password}),
             redis_config_line("sentinel monitor", {master, primary_address, std::to_string(primary_port), "2"}),
             redis_config_line("sentinel auth-pass", {master, password}),
             redis_config_line("sentinel down-after-milliseconds", {master, "1000"}),
             redis_config_line("sentinel failover-timeout", {master, "3000"}),
             redis_config_line("sentinel parallel-syncs", {master, "2"})})
        text += line + "\n";
    const auto conf = dir / "sentinel.conf";
    write_private_file(conf, text);
    return NodeProgram{{"redis-sentinel", conf.string()},
                       [password](const std::string& a) { return redis_answers_ping(a, kSentinelPort, password); }};
}

int as_int(const std::optional<std::string>& text) {
    try {
        return text ? std::stoi(*text) : -1;
    } catch (const std::exception&) {
        return -1;
    }
}

}  // namespace

RedisSentinel::RedisSentinel(const TopologyOptions& options, const TestNetwork& network)
    : password_(options.credentials.client_password), interrupt_(options.interrupt) {
    const auto persistence = redis_persistence_from_string(options.persistence);
    const std::string primary = network.address(0);
    // Where peers reach a server or sentinel: with peer links (a partition in
    // loopback mode) its face, else its port; every peer learns it from the
    // configs below (replicaof, monitor, announce-port, replica-announce-port).
    const auto peer_port = [&](int host, int port) {
        return options.peer_links ? options.peer_links->add_face(network.address(host), port) : port;
    };
    std::vector<int> redis_peer_ports;
    for (int i = 0; i < kRedisNodes; ++i) redis_peer_ports.push_back(peer_port(i, kRedisPort));
    for (int i = 0; i < kRedisNodes; ++i) {
        // bind-source-addr / replica-announce-ip: in loopback mode a replica
        // would otherwise connect from, and be known as, 127.0.0.1.
        std::vector<std::string> extra{"repl-diskless-sync-delay 0",
                                       redis_config_line("bind-source-addr", {network.address(i)}),
                                       redis_config_line("replica-announce-ip", {network.address(i)}),
                                       "replica-announce-port " + std::to_string(redis_peer_ports[i])};
        if (i > 0) extra.push_back(redis_config_line("replicaof", {primary, std::to_string(redis_peer_ports[0])}));
        for (auto& line : redis_durability_config(options.durability)) extra.push_back(std::move(line));
        redis_.push_back(make_topology_node(
            options, network, i, "n" + std::to_string(i + 1), [&](const auto& dir, const auto& address) {
                return redis_server_program(dir, address, persistence, password_, extra);
            }));
    }
    for (int i = 0; i < kSentinels; ++i) {
        sentinels_.push_back(make_topology_node(
            options, network, kRedisNodes + i, "s" + std::to_string(i + 1), [&](const auto& dir, const auto& address) {
                return sentinel_program(dir, address, peer_port(kRedisNodes + i, kSentinelPort), primary,
                                        redis_peer_ports[0], password_);
            }));
    }
}

void RedisSentinel::start() {
    for (auto& n : redis_) n->start();
    for (auto& s : sentinels_) s->start();
    await_settled(
        "redis-sentinel", interrupt_, std::chrono::seconds(20),
        [&] {
            Node* p = primary();
            return p && settled(*p, kRedisNodes - 1);
        },
        [] {
            return "did not settle within 20 s (replicas in sync, sentinels seeing each other); see the "
                   "nodes' server.log";
        });
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
        auto reply = redis_admin_command(s->address(), kSentinelPort, password_,
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
    auto info = redis_admin_command(primary.address(), kRedisPort, password_, {"INFO", "replication"});
    if (!info || info->empty() || info_field(info->front(), "role") != "master") return false;
    int online = 0;
    for (int i = 0; i < replicas + 2; ++i) {
        auto slave = info_field(info->front(), "slave" + std::to_string(i));
        if (slave && slave->find("state=online") != std::string::npos) ++online;
    }
    if (online < replicas) return false;
    for (auto& s : sentinels_) {
        auto master =
            redis_admin_command(s->address(), kSentinelPort, password_, {"SENTINEL", "MASTER", kSentinelMasterName});
        if (!master || pair_field(*master, "ip") != primary.address() ||
            as_int(pair_field(*master, "num-other-sentinels")) != kSentinels - 1 ||
            as_int(pair_field(*master, "num-slaves")) < replicas)
            return false;
        const auto flags = pair_field(*master, "flags").value_or("");
        if (flags != "master") return false;  // not s_down / o_down / failover_in_progress
    }
    return true;
}

}  // namespace lockcheck
