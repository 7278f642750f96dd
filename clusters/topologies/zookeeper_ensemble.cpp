#include "clusters/topologies/zookeeper_ensemble.hpp"

#include "clusters/network/peer_links.hpp"
#include "clusters/servers/zookeeper_election_hello.hpp"
#include "clusters/servers/zookeeper_txn_log.hpp"

namespace lockcheck {
namespace {

/// The server lines of server `self`'s zoo.cfg: its own real ports, and for
/// each other server its ports or, with peer links, pair faces from `self`
/// to it (the election face rewrites the handshake, so that a server that
/// calls back uses its own zoo.cfg: clusters/servers/zookeeper_election_hello.hpp).
std::vector<ZooKeeperServerLine> server_lines(const TopologyOptions& options, const TestNetwork& network, int self,
                                              int servers) {
    std::vector<ZooKeeperServerLine> lines;
    for (int i = 0; i < servers; ++i) {
        ZooKeeperServerLine line{network.address(i)};
        if (options.peer_links && i != self) {
            const auto from = network.address(self);
            line.quorum_port = options.peer_links->add_pair_face(from, line.address, kZooKeeperQuorumPort);
            line.election_port = options.peer_links->add_pair_face(from, line.address, kZooKeeperElectionPort,
                                                                   zookeeper_election_hello_rewriter());
        }
        lines.push_back(line);
    }
    return lines;
}

}  // namespace

ZooKeeperEnsemble::ZooKeeperEnsemble(const TopologyOptions& options, const TestNetwork& network)
    : interrupt_(options.interrupt) {
    for (int i = 0; i < kServers; ++i) {
        const auto ensemble = server_lines(options, network, i, kServers);
        nodes_.push_back(
            make_topology_node(options, network, i, "n" + std::to_string(i + 1), [&](const auto& dir, const auto&) {
                return zookeeper_server_program(dir, i + 1, ensemble, options.durability.zookeeper_force_sync);
            }));
    }
}

void ZooKeeperEnsemble::start() {
    for (auto& n : nodes_) n->start(std::chrono::seconds(30));  // a JVM on a busy machine: ≈ 1.3 s, give slack
    await_settled(
        "zookeeper", interrupt_, std::chrono::seconds(30), [&] { return leader_elected(); },
        [] {
            return "elected no leader within 30 s (one node in Mode: leader, the others following); see the nodes' "
                   "server.log";
        });
}

void ZooKeeperEnsemble::stop() {
    for (auto& n : nodes_) n->stop_at_once();
}

std::vector<Node*> ZooKeeperEnsemble::nodes() { return node_pointers(nodes_); }

std::vector<std::string> ZooKeeperEnsemble::client_endpoints() const {
    return node_endpoints(nodes_, kZooKeeperClientPort);
}

Node* ZooKeeperEnsemble::primary() {
    for (auto& n : nodes_)
        if (!n->paused() && zookeeper_mode(n->address()) == "leader") return n.get();
    return nullptr;
}

std::optional<std::vector<Node*>> ZooKeeperEnsemble::lock_nodes() { return primary_or_all(*this); }

bool ZooKeeperEnsemble::leader_elected() {
    int leaders = 0, followers = 0;
    for (auto& n : nodes_) {
        const auto mode = zookeeper_mode(n->address());
        leaders += mode == "leader";
        followers += mode == "follower";
    }
    return leaders == 1 && followers == kServers - 1;
}

ServerRecordOutcome read_zookeeper_server_record(Topology& topology, const std::filesystem::path& run_dir) {
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::filesystem::path> data_dirs;
    for (Node* node : topology.nodes()) data_dirs.push_back(node->data_dir());
    // The ensemble serves this run alone: every node in it is the run's.
    const ZooKeeperTxnRecord record = read_zookeeper_txn_logs(data_dirs, "/");
    ServerRecordOutcome outcome{"zookeeper", record.read, record.why, record.txns.size(),
                                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
    nlohmann::json header = nlohmann::json::object();
    if (record.read) header = {{"zxid", record.zxid}, {"servers", record.servers}};
    if (!record.notes.empty()) header["notes"] = record.notes;
    write_server_record(run_dir / kServerRecordFile, outcome, header, record.txns);
    return outcome;
}

}  // namespace lockcheck
