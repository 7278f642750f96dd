// A real ZooKeeper ensemble in loopback mode whose quorum and election
// traffic goes through the peer links' pair faces (clusters/network/peer_links.hpp,
// docs/nemesis.md "Partitions in loopback mode"): every peer connection is
// proxied (none is made directly, not even the call-back to a restarted
// server with the lowest sid, which the election handshake would send past
// the faces without its rewrite), a cut that isolates the leader makes the majority elect
// another one while the old one stops serving, and the heal reconverges.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "clusters/network/peer_links.hpp"
#include "clusters/topologies/zookeeper_ensemble.hpp"
#include "core/interruptible_sleep.hpp"
#include "tests/clusters/power_loss_cluster.hpp"

using namespace lockcheck;
using namespace lockcheck::testing;
using namespace std::chrono_literals;

namespace {

/// The inodes of this process's sockets: the fault proxy's, among them its
/// upstream connections to the servers' real ports.
std::set<std::string> own_socket_inodes() {
    std::set<std::string> inodes;
    for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
        std::error_code ec;
        const auto target = std::filesystem::read_symlink(entry.path(), ec).string();
        if (!ec && target.starts_with("socket:[")) inodes.insert(target.substr(8, target.size() - 9));
    }
    return inodes;
}

struct PeerPortConnections {
    int proxied = 0;  ///< established by the fault proxy (this process)
    int direct = 0;   ///< established by anything else: a ZooKeeper server past the faces
};

/// Established TCP connections (client ends, in /proc/net/tcp) to a quorum
/// or election port of one of `addresses`, by who made them.
PeerPortConnections connections_to_peer_ports(const std::vector<std::string>& addresses) {
    std::set<std::string> wanted;  // /proc/net/tcp's "AABBCCDD:PPPP", address in host order
    for (const auto& address : addresses) {
        unsigned a = 0, b = 0, c = 0, d = 0;
        std::sscanf(address.c_str(), "%u.%u.%u.%u", &a, &b, &c, &d);
        for (const int port : {kZooKeeperQuorumPort, kZooKeeperElectionPort}) {
            char key[32];
            std::snprintf(key, sizeof key, "%02X%02X%02X%02X:%04X", d, c, b, a, port);
            wanted.insert(key);
        }
    }
    const auto own = own_socket_inodes();
    std::ifstream tcp("/proc/net/tcp");
    std::string line;
    std::getline(tcp, line);  // header
    PeerPortConnections count;
    while (std::getline(tcp, line)) {
        std::istringstream fields(line);
        std::string slot, local, remote, state, queues, timer, retransmits, uid, timeout, inode;
        fields >> slot >> local >> remote >> state >> queues >> timer >> retransmits >> uid >> timeout >> inode;
        if (state != "01" || !wanted.contains(remote)) continue;
        (own.contains(inode) ? count.proxied : count.direct) += 1;
    }
    return count;
}

}  // namespace

TEST(ZooKeeperPeerLinks, ALoopbackCutOfTheLeaderMovesLeadershipToTheMajorityAndTheHealReconverges) {
    PeerLinks links;
    TopologyOptions options;
    options.peer_links = &links;
    Cluster<ZooKeeperEnsemble> cluster("zk-peer-links", ZooKeeperEnsemble::kServers, options, false,
                                       NetworkMode::Loopback);
    auto& zk = cluster.topology();
    std::vector<std::string> addresses;
    for (Node* n : zk.nodes()) addresses.push_back(n->address());
    EXPECT_EQ(links.totals().faces, 12u) << "each server has a quorum and an election face for each other one";

    // Every peer connection is proxied: every established connection to a
    // real peer port is the fault proxy's (a socket of this process), none a
    // server's own. The lowest sid restarts first: it calls the others'
    // election ports, and they call it back to the address its handshake
    // names, which the rewrite turns into "use your zoo.cfg".
    const auto all_proxied = [&] {
        const auto connections = connections_to_peer_ports(addresses);
        return connections.proxied >= 4 && connections.direct == 0;
    };
    Node& lowest = *zk.nodes().front();
    lowest.stop_at_once();
    lowest.start(30s);
    EXPECT_TRUE(poll_until([&] { return zk.leader_elected(); }, 20s, 100ms, {})) << "the restarted server rejoins";
    EXPECT_TRUE(poll_until(all_proxied, 20s, 100ms, {}))
        << "connections to the real peer ports: " << connections_to_peer_ports(addresses).proxied
        << " through the faces, " << connections_to_peer_ports(addresses).direct << " past them";

    Node* old_leader = zk.primary();
    ASSERT_NE(old_leader, nullptr);
    std::vector<std::string> others;
    for (const auto& address : addresses)
        if (address != old_leader->address()) others.push_back(address);
    EXPECT_GE(links.isolate({old_leader->address()}, others), 4u)
        << "the followers' quorum and election connections to the leader";

    Node* new_leader = nullptr;
    EXPECT_TRUE(poll_until(
        [&] {
            new_leader = zk.primary();
            return new_leader && new_leader != old_leader;
        },
        20s, 100ms, {}))
        << "the majority elects another leader";
    EXPECT_TRUE(poll_until([&] { return !zookeeper_mode(old_leader->address()).has_value(); }, 10s, 100ms, {}))
        << "the old leader loses its quorum and stops serving";
    for (int i = 0; i < 10; ++i) {  // and stays so while cut off
        EXPECT_FALSE(zookeeper_mode(old_leader->address()).has_value());
        std::this_thread::sleep_for(200ms);
    }
    int serving = 0;
    for (const auto& address : others) serving += zookeeper_mode(address).has_value();
    EXPECT_EQ(serving, 2) << "the majority serves";

    links.heal();
    EXPECT_EQ(links.totals().rules_in_force, 0u);
    EXPECT_TRUE(poll_until([&] { return zk.leader_elected(); }, 20s, 100ms, {})) << "all three serve again";
    EXPECT_EQ(zookeeper_mode(old_leader->address()), "follower") << "the old leader rejoins the new one";

    EXPECT_NE(old_leader->read_log().find("Dynamic reconfig is disabled, we don't store the last seen config"),
              std::string::npos)
        << "the leader's quorum config (its own faces) sent at NEWLEADER was not stored";
}
