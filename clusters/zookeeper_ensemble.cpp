#include "clusters/zookeeper_ensemble.hpp"

#include <thread>


namespace lockcheck {

ZooKeeperEnsemble::ZooKeeperEnsemble(const TopologyOptions& options, const TestNetwork& network) {
    std::vector<std::string> ensemble;
    for (int i = 0; i < kServers; ++i) ensemble.push_back(network.address(i));
    for (int i = 0; i < kServers; ++i) {
        nodes_.push_back(make_topology_node(options, network, i, "n" + std::to_string(i + 1),
                                            [&](const auto& dir, const auto&) {
                                                return zookeeper_server_program(dir, i + 1, ensemble);
                                            }));
    }
}

void ZooKeeperEnsemble::start() {
    for (auto& n : nodes_) n->start(std::chrono::seconds(30));  // a JVM on a busy machine: ≈ 1.3 s, give slack
    if (!wait_for_leader(std::chrono::seconds(30)))
        throw NodeStartError("topology zookeeper elected no leader within 30 s (one node in Mode: leader, the others "
                             "following); see the nodes' server.log");
}

void ZooKeeperEnsemble::stop() {
    for (auto& n : nodes_) n->kill();
}

std::vector<Node*> ZooKeeperEnsemble::nodes() { return node_pointers(nodes_); }

std::vector<std::string> ZooKeeperEnsemble::client_endpoints() const { return node_endpoints(nodes_, kZooKeeperClientPort); }

Node* ZooKeeperEnsemble::primary() {
    for (auto& n : nodes_)
        if (!n->paused() && zookeeper_mode(n->address()) == "leader") return n.get();
    return nullptr;
}

std::optional<std::vector<Node*>> ZooKeeperEnsemble::lock_nodes() { return primary_or_all(*this); }

bool ZooKeeperEnsemble::wait_for_leader(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
        int leaders = 0, followers = 0;
        for (auto& n : nodes_) {
            const auto mode = zookeeper_mode(n->address());
            leaders += mode == "leader";
            followers += mode == "follower";
        }
        if (leaders == 1 && followers == kServers - 1) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
}

}  // namespace lockcheck
