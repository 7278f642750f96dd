// Topology "mysql-replicated": a primary (n1) and one asynchronous replica
// (n2, started with --read-only=1) replicating with GTIDs
// (CHANGE MASTER TO ... MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1),
// each mariadbd on its own host. The replica logs in to the primary as
// kMariadbReplicationUser with the run's replication password. start()
// returns when the replica has applied everything the primary logged (the
// accounts and database reach it by replication).
//
// Clients get both endpoints, primary first, and write to the first whose
// @@read_only is 0 (recipes/mysql_connection.hpp). The failover fault
// (nemesis/mysql_failover.hpp) promotes the replica and later fences the old
// primary with promote() / fence(). A node restarted by kill-restart comes
// back with its command line: the replica read-only and replicating again.
//
// Built with TopologyOptions::peer_links (loopback mode), the replica's
// replication connection goes through a pair face from n2 to n1's port
// (clusters/network/peer_links.hpp), so a `partition` cuts replication without root;
// clients still reach both servers directly.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <stop_token>

#include "clusters/topologies/topology.hpp"
#include "clusters/topologies/topology_descriptor.hpp"

namespace lockcheck {

class MysqlReplicated : public Topology, public PrimaryPromotion {
public:
    MysqlReplicated(const TopologyOptions& options, const TestNetwork& network);
    void start() override;
    void stop() override;
    std::vector<Node*> nodes() override { return {primary_.get(), replica_.get()}; }
    /// "ip:3306" of n1, then of n2.
    std::vector<std::string> client_endpoints() const override;
    /// The node a reconnecting client would write to: the promoted replica
    /// while it is writable, otherwise the first node whose @@read_only is 0
    /// (asked over the socket); nullptr when none answers writable.
    Node* primary() override;
    /// Every lock lives on the primary.
    std::optional<std::vector<Node*>> lock_nodes() override {
        Node* p = primary();
        return p ? std::vector<Node*>{p} : std::vector<Node*>{};
    }

    /// Stops replication on `replica` and makes it writable. Throws
    /// std::runtime_error when the node refuses.
    void promote(Node& replica) override;
    /// Makes `node` read-only (clients without SUPER can no longer write
    /// there). Throws std::runtime_error when the node refuses.
    void fence(Node& node) override;
    /// The failover fault promotes the replica, as a failover manager would.
    FailoverControl failover_control() override { return {.promotion = this}; }
    /// The node promote() was called on, or nullptr.
    Node* promoted() const;
    /// True when the replica has applied everything the primary logged.
    bool replica_caught_up();

private:
    std::unique_ptr<Node> primary_;
    std::unique_ptr<Node> replica_;
    int replication_port_;  ///< where the replica reaches the primary: its port, or a pair face
    ServerCredentials credentials_;
    std::stop_token interrupt_;  ///< ends the wait of start() early
    std::string run_id_;  ///< names the installer's links in /tmp (install_mariadb_datadirs)
    mutable std::mutex mutex_;
    Node* promoted_ = nullptr;
};

/// The descriptor of this topology (clusters/topologies/mysql_replicated_descriptor.cpp).
TopologyDescriptor mysql_replicated_topology();

}  // namespace lockcheck
