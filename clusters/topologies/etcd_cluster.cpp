#include "clusters/topologies/etcd_cluster.hpp"

#include <map>

#include "clusters/servers/etcd_history.hpp"

#include <fmt/format.h>

namespace lockcheck {
namespace {

std::string fresh_token() { return "lockcheck-" + random_secret_hex(8); }

}  // namespace

EtcdCluster::EtcdCluster(const TopologyOptions& options, const TestNetwork& network) : interrupt_(options.interrupt) {
    if (network.node_count() < kMembers)
        throw std::invalid_argument("topology etcd needs " + std::to_string(kMembers) + " network hosts");
    EtcdBootstrap bootstrap{"", fresh_token()};
    for (int i = 0; i < kMembers; ++i)
        bootstrap.initial_cluster +=
            fmt::format("{}n{}=http://{}:{}", i ? "," : "", i + 1, network.address(i), kEtcdPeerPort);
    for (int i = 0; i < kMembers; ++i) {
        const std::string name = "n" + std::to_string(i + 1);
        const auto data_dir = (options.scratch_dir.empty() ? options.dir / name : options.scratch_dir / name) / "data";
        data_dirs_.push_back(data_dir);
        members_.push_back(make_topology_node(options, network, i, name, [&](const auto& dir, const auto& address) {
            return etcd_server_program(dir, data_dir, name, address, bootstrap, options.durability.etcd_fsync);
        }));
    }
}

void EtcdCluster::start() {
    for (auto& m : members_) m->start();
    await_settled(
        "etcd", interrupt_, std::chrono::seconds(20), [&] { return leader_agreed(); },
        [] { return "elected no leader within 20 s (every member must name the same one); see nodes/n*/server.log"; });
}

void EtcdCluster::stop() {
    for (std::size_t i = 0; i < members_.size(); ++i) {
        members_[i]->stop_at_once();  // unmounts its data dir, if it was on the lose-unsynced filesystem
        std::error_code ignored;      // ~120 MB of preallocated WAL per member is no evidence; the log stays
        std::filesystem::remove_all(data_dirs_[i], ignored);
    }
}

std::vector<Node*> EtcdCluster::nodes() { return node_pointers(members_); }

std::vector<std::string> EtcdCluster::client_endpoints() const { return node_endpoints(members_, kEtcdClientPort); }

Node* EtcdCluster::primary() {
    std::map<std::string, Node*> by_id;
    std::map<std::string, int> votes;
    for (auto& m : members_) {
        const auto status = etcd_member_status(m->address());
        if (!status) continue;
        by_id[status->member_id] = m.get();
        if (!status->leader.empty() && status->leader != "0") ++votes[status->leader];
    }
    for (const auto& [leader, count] : votes)
        if (count * 2 > static_cast<int>(by_id.size()) && by_id.count(leader)) return by_id[leader];
    return nullptr;
}

bool EtcdCluster::leader_agreed() {
    std::string leader;
    bool agreed = true;
    for (auto& m : members_) {
        const auto status = etcd_member_status(m->address());
        agreed = agreed && status && !status->leader.empty() && status->leader != "0" &&
                 (leader.empty() || leader == status->leader);
        if (status) leader = status->leader;
    }
    return agreed;
}

ServerRecordOutcome read_etcd_server_record(Topology& topology, const std::filesystem::path& run_dir) {
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::string> addresses;
    for (Node* node : topology.nodes()) addresses.push_back(node->address());
    const EtcdHistory history = read_etcd_history(addresses);
    ServerRecordOutcome outcome{"etcd", history.read, history.why, history.events.size(),
                                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
    nlohmann::json header = nlohmann::json::object();
    if (history.read) header = {{"revision", history.revision}, {"member", history.member}};
    write_server_record(run_dir / kServerRecordFile, outcome, header, history.events);
    return outcome;
}

}  // namespace lockcheck
