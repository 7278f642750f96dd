#include "clusters/etcd_cluster.hpp"

#include <map>
#include <random>
#include <thread>

#include <fmt/format.h>

namespace lockcheck {
namespace {

std::string fresh_token() {
    std::random_device random;
    return fmt::format("lockcheck-{:08x}{:08x}", random(), random());
}

}  // namespace

EtcdCluster::EtcdCluster(const TopologyOptions& options, const TestNetwork& network) {
    if (network.node_count() < kMembers)
        throw std::invalid_argument("topology etcd needs " + std::to_string(kMembers) + " network hosts");
    EtcdBootstrap bootstrap{"", fresh_token()};
    for (int i = 0; i < kMembers; ++i)
        bootstrap.initial_cluster += fmt::format("{}n{}=http://{}:{}", i ? "," : "", i + 1, network.address(i),
                                                 kEtcdPeerPort);
    for (int i = 0; i < kMembers; ++i) {
        const std::string name = "n" + std::to_string(i + 1);
        const auto dir = options.dir / name;
        data_dirs_.push_back((options.scratch_dir.empty() ? dir : options.scratch_dir / name) / "data");
        members_.push_back(std::make_unique<Node>(
            name, network.address(i), network.netns(i), dir,
            etcd_server_program(dir, data_dirs_.back(), name, network.address(i), bootstrap)));
    }
}

void EtcdCluster::start() {
    for (auto& m : members_) m->start();
    if (!wait_for_leader(std::chrono::seconds(20)))
        throw NodeStartError("topology etcd elected no leader within 20 s (every member must name the same one); "
                             "see nodes/n*/server.log");
}

void EtcdCluster::stop() {
    for (std::size_t i = 0; i < members_.size(); ++i) {
        members_[i]->kill();
        std::error_code ignored;  // ~120 MB of preallocated WAL per member is no evidence; the log stays
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

bool EtcdCluster::wait_for_leader(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
        std::string leader;
        bool agreed = true;
        for (auto& m : members_) {
            const auto status = etcd_member_status(m->address());
            agreed = agreed && status && !status->leader.empty() && status->leader != "0" &&
                     (leader.empty() || leader == status->leader);
            if (status) leader = status->leader;
        }
        if (agreed) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
}

}  // namespace lockcheck
