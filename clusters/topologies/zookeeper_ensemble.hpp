// Topology "zookeeper": an ensemble of three ZooKeeper 3.8 servers (n1..n3,
// myid 1..3), each on its own host (namespace), client port 2181, quorum
// ports 2888/3888 (clusters/servers/zookeeper_node.hpp). Client endpoints are the
// servers' "ip:2181" in node order; a client connects to all of them.
//
// start() starts the servers one after another (each is up when it answers
// `ruok`), then waits until one of them reports Mode: leader and the others
// Mode: follower (≈ 2-3 s after the first spawn): before that no client
// request is served. Session timeouts granted lie in
// [kZooKeeperMinSessionMs, kZooKeeperMaxSessionMs] = [1000, 60000] ms.
//
// With TopologyOptions::peer_links (a loopback run that partitions), each
// server reaches each other one through pair faces of its own, one for the
// quorum port and one for the election port (docs/nemesis.md, "Partitions in
// loopback mode"); clients still connect to the real client ports.
//
// With TopologyOptions::clock_library the JVMs run with the clock library:
// clock-skew moves System.currentTimeMillis (node ctime/mtime, log times),
// not session expiry, which ZooKeeper measures with System.nanoTime.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "clusters/servers/zookeeper_node.hpp"
#include "clusters/topologies/topology.hpp"
#include "clusters/topologies/topology_descriptor.hpp"

namespace lockcheck {

class ZooKeeperEnsemble : public Topology {
public:
    static constexpr int kServers = 3;

    ZooKeeperEnsemble(const TopologyOptions& options, const TestNetwork& network);
    void start() override;
    /// SIGKILLs each JVM (then unmounts its data directory, if it is on the
    /// lose-unsynced filesystem): a ZooKeeper server takes ≈ 2 s to exit on
    /// SIGTERM (3 nodes one after another: ≈ 6 s of every run's teardown), and
    /// nothing of a run's data needs a clean shutdown.
    void stop() override;
    std::vector<Node*> nodes() override;
    std::vector<std::string> client_endpoints() const override;
    /// The node that reports Mode: leader, or nullptr when none answers so.
    Node* primary() override;
    /// Every lock lives on all members: the leader (losing it costs an
    /// election), or every member while none leads.
    std::optional<std::vector<Node*>> lock_nodes() override;
    /// True when one node leads and every other follows.
    bool leader_elected();

private:
    std::stop_token interrupt_;  ///< ends the wait of start() early
    std::vector<std::unique_ptr<Node>> nodes_;
};

/// ZooKeeper's record of the run (clusters/servers/zookeeper_txn_log.hpp):
/// the transaction logs of `topology`'s servers, read from their data
/// directories on this host, written into `run_dir`/server-record.jsonl
/// (TopologyDescriptor::read_server_record).
ServerRecordOutcome read_zookeeper_server_record(Topology& topology, const std::filesystem::path& run_dir);

/// The descriptor of this topology (clusters/topologies/zookeeper_descriptor.cpp).
TopologyDescriptor zookeeper_topology();

}  // namespace lockcheck
