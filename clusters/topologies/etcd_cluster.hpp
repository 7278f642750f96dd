// Topology "etcd": three etcd 3.4 members (n1..n3), each in its own node
// namespace, bootstrapped statically (--initial-cluster, state new, a fresh
// cluster token per run). Clients get the members' client addresses
// ("IP:2379") in node order.
//
// start() spawns every member (a member answers nothing until a quorum is up,
// so they cannot be started and awaited one by one), then waits until every
// member names the same leader. stop() SIGKILLs: a SIGTERMed leader spends
// about 5 s handing over leadership (docs/servers.md); then it removes the members'
// data dirs (about 120 MB of preallocated WAL each), keeping their logs. The
// data dirs live in the run's scratch directory (TopologyOptions::scratch_dir),
// so `clean` reclaims them when the run was killed before stop().
#pragma once

#include <chrono>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

#include "clusters/servers/etcd_node.hpp"
#include "clusters/topologies/topology.hpp"
#include "clusters/topologies/topology_descriptor.hpp"

namespace lockcheck {

class EtcdCluster : public Topology {
public:
    static constexpr int kMembers = 3;

    EtcdCluster(const TopologyOptions& options, const TestNetwork& network);
    void start() override;
    void stop() override;
    std::vector<Node*> nodes() override;
    std::vector<std::string> client_endpoints() const override;
    /// The member that a majority of the members answering name as leader
    /// (each asked with a 300 ms timeout), or nullptr.
    Node* primary() override;
    /// Every member holds every lock: the leader, or all members while none leads.
    std::optional<std::vector<Node*>> lock_nodes() override { return primary_or_all(*this); }
    /// True when every member answers and names the same leader.
    bool leader_agreed();

private:
    std::stop_token interrupt_;  ///< ends the wait of start() early
    std::vector<std::unique_ptr<Node>> members_;
    std::vector<std::filesystem::path> data_dirs_;  ///< data_dirs_[i]: member i's --data-dir
};

/// etcd's record of the run (clusters/servers/etcd_history.hpp) from the
/// first member of `topology` that gives it, written into
/// `run_dir`/server-record.jsonl (TopologyDescriptor::read_server_record).
ServerRecordOutcome read_etcd_server_record(Topology& topology, const std::filesystem::path& run_dir);

/// The descriptor of this topology (clusters/topologies/etcd_descriptor.cpp).
TopologyDescriptor etcd_topology();

}  // namespace lockcheck
