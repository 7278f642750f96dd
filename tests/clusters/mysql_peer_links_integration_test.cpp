// A real MariaDB primary and replica (mysql-replicated) in loopback mode whose
// replication connection goes through a peer links' pair face
// (clusters/network/peer_links.hpp, docs/nemesis.md "Partitions in loopback mode"):
// replication starts through the face, a cut stops it (the replica falls
// behind while the primary takes writes), and the heal lets it catch up.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "clusters/servers/mariadb_node.hpp"
#include "clusters/topologies/mysql_replicated.hpp"
#include "clusters/network/peer_links.hpp"
#include "core/interruptible_sleep.hpp"
#include "tests/clusters/power_loss_cluster.hpp"

using namespace lockcheck;
using namespace lockcheck::testing;
using namespace std::chrono_literals;

TEST(MysqlPeerLinks, ALoopbackCutStopsReplicationAndTheHealLetsTheReplicaCatchUp) {
    PeerLinks links;
    TopologyOptions options;
    options.peer_links = &links;
    Cluster<MysqlReplicated> cluster("mysql-peer-links", 2, options, false, NetworkMode::Loopback);
    auto& mysql = cluster.topology();
    Node& primary = cluster.node(0);
    Node& replica = cluster.node(1);
    EXPECT_EQ(links.totals().faces, 1u) << "one pair face: from the replica to the primary's port";
    EXPECT_TRUE(mysql.replica_caught_up()) << "replication started through the face";
    EXPECT_EQ(links.totals().open, 1u) << "the replica's replication connection goes through the face";

    EXPECT_EQ(links.isolate({primary.address()}, {replica.address()}), 1u) << "the cut catches that connection";
    mariadb_admin(primary, {"CREATE DATABASE lockcheck_cut_probe"});
    for (int i = 0; i < 10; ++i) {  // the write stays on the primary while the cut holds
        EXPECT_FALSE(mysql.replica_caught_up()) << "the replica applied a write made during the cut";
        std::this_thread::sleep_for(200ms);
    }

    links.heal();
    EXPECT_EQ(links.totals().rules_in_force, 0u);
    EXPECT_TRUE(poll_until([&] { return mysql.replica_caught_up(); }, 10s, 100ms, {}))
        << "the replica did not catch up within 10 s of the heal";
}
